import { t } from './messages/index.ts';
import { errorMessage } from './trpc.ts';

/**
 * The API names a document by its place in the request (`documents[0]: …`); here the person chose
 * files, so the message names the file instead.
 */
export function withFileNames(err: unknown, files: readonly { name: string }[]): { message: string } {
  const message = errorMessage(err);
  const [whole, i] = /^documents\[(\d+)\]:?\s*/.exec(message) ?? [];
  const file = whole ? files[Number(i)] : undefined;
  if (!whole || !file) return { message };
  return { message: t('upload.file_error', { file: file.name, error: message.slice(whole.length) }) };
}
