import type { SigningPage } from './signing-state.ts';

/** The signing page's opening sentence: what to fill in, and how many fields are required. */
export function introText(page: Pick<SigningPage, 'fields'>): string {
  const fillable = page.fields.filter((f) => !f.prefilled);
  if (!fillable.length) return 'Review the document, then select Finish to review and sign it.';
  const required = fillable.filter((f) => f.required).length;
  return `Fill in the highlighted fields on the document${
    required === 1
      ? '; the one marked with * is required'
      : required
        ? `; the ${required} marked with * are required`
        : ''
  }. Next field takes you to each one in turn. Select Finish when you are done: you review what you entered before you sign.`;
}
