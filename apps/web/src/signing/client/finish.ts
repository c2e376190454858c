import { signing } from './api.ts';
import { announce } from './dom.ts';
import { hideSummary, showProblem, showSummary } from './error-summary.ts';
import { CLOSED, NEEDS_CODE, toApiError } from './errors.ts';
import { paintField } from './field-display.ts';
import { setSession, token, withSession } from './session.ts';
import type { SigningPage } from './signing-state.ts';
import { SIGNED, viewForError } from './status.ts';
import { missingRequired, safeRedirect, valuesByName } from './values.ts';

/**
 * Finish: every required field must be filled (else the error summary), then signing.complete
 * signs, and the page thanks the signer or goes to the sender's redirect_url.
 */
export async function finish(page: SigningPage): Promise<void> {
  const { ui } = page;
  if (page.done || ui.finish.disabled) return;
  const missing = missingRequired(page.fields, page.values);
  page.invalid = new Set(missing.map((f) => f.id));
  for (const f of page.fields) paintField(page, f);
  if (missing.length) return showSummary(page, true);
  hideSummary(ui);
  if (page.open.preview) {
    showProblem(ui, 'Preview: everything required is filled in. A preview signs nothing and saves nothing.');
    return;
  }
  ui.finish.disabled = true;
  ui.finish.textContent = 'Signing…';
  announce('Signing the document…');
  window.clearTimeout(page.saveTimer);
  while (page.saving) await page.saving.catch(() => {});
  try {
    // Saved progress is merged on the server, so only what autosave has not sent yet goes along
    // (a 10 MB attachment is not uploaded twice).
    const values = valuesByName(page.fields, page.values, page.dirty);
    const res = await signing.complete.mutate(withSession({ token, values }));
    page.dirty.clear();
    page.done = true;
    setSession(undefined);
    signed(page, safeRedirect(res.redirect_url ?? page.open.redirect_url));
  } catch (e) {
    ui.finish.disabled = false;
    ui.finish.textContent = 'Finish';
    const err = toApiError(e);
    if (CLOSED.has(err.code)) return page.flow.close(viewForError(err.code, err.message));
    if (NEEDS_CODE.has(err.code)) return page.flow.restart();
    showProblem(
      ui,
      err.code === 'network'
        ? 'The document could not be signed because the server could not be reached. Check your connection and select Finish again.'
        : `The document could not be signed: ${err.message}`,
    );
  }
}

function signed(page: SigningPage, redirectTo: string | null): void {
  if (!redirectTo) {
    page.flow.close(SIGNED);
    return;
  }
  page.flow.close({ ...SIGNED, body: 'Thank you. Taking you back now…' });
  window.location.assign(redirectTo);
}
