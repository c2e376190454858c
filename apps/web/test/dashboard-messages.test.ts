import { TRPCClientError } from '@trpc/client';
import { describe, expect, it } from 'vitest';
import { errorMessage } from '../dashboard/src/trpc.ts';
import { withFileNames } from '../dashboard/src/upload-errors.ts';

const failed = (code: string, message: string) =>
  new TRPCClientError(message, { result: { error: { message, code: -32600, data: { code } } } } as never);

describe('dashboard messages (issue 33 item 5)', () => {
  it("a page's own message ({ message }) is shown as written, not as 'Something went wrong'", () => {
    expect(errorMessage({ message: 'Your role (viewer) cannot send' })).toBe(
      'Your role (viewer) cannot send',
    );
    expect(errorMessage({})).toBe('Something went wrong. Please try again.');
  });

  it("an upload error names the file the person chose, not the API's documents[0]", () => {
    const err = failed('invalid_document', 'documents[1]: the file is not a PDF or an image');
    const shown = withFileNames(err, [{ name: 'contract.pdf' }, { name: 'notes.txt' }]).message;
    expect(shown).toBe('notes.txt: the file is not a PDF or an image');
    expect(withFileNames(failed('invalid_document', 'no documents'), []).message).toBe('no documents');
  });
});
