import { errorMessage } from './trpc.ts';

/**
 * The API names a document by its place in the request (`documents[0]: …`); here the person chose
 * files, so the message names the file instead.
 */
export function withFileNames(err: unknown, files: readonly { name: string }[]): { message: string } {
  const message = errorMessage(err).replace(/^documents\[(\d+)\]:?\s*/, (whole, i: string) => {
    const file = files[Number(i)];
    return file ? `${file.name}: ` : whole;
  });
  return { message };
}
