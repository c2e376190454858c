import { tr } from './i18n.ts';
import type { SigningPage } from './signing-state.ts';

/** The signing page's opening sentence: what to fill in, and how many fields are required. */
export function introText(page: Pick<SigningPage, 'fields'>): string {
  const fillable = page.fields.filter((f) => !f.prefilled);
  if (!fillable.length) return tr('sign.intro_none');
  return tr('sign.intro', { required: fillable.filter((f) => f.required).length });
}
