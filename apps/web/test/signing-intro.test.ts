import { describe, expect, it } from 'vitest';
import { introText } from '../src/signing/client/intro-text.ts';

const page = (fields: { required: boolean; prefilled?: boolean }[]) =>
  ({ fields: fields.map((f) => ({ prefilled: false, ...f })) }) as never;

describe("the signing page's opening sentence counts the required fields in words (issue 33 item 5)", () => {
  it('one required field reads "the one marked with * is required"', () => {
    expect(introText(page([{ required: true }, { required: false }]))).toContain(
      '; the one marked with * is required.',
    );
  });

  it('several read "the 3 marked with * are required"; none leaves the clause out', () => {
    expect(introText(page([{ required: true }, { required: true }, { required: true }]))).toContain(
      '; the 3 marked with * are required.',
    );
    expect(introText(page([{ required: false }]))).not.toContain('marked with');
  });
});
