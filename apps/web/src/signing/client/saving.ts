import { signing, signingOnExit } from './api.ts';
import { background } from './dom.ts';
import { showProblem } from './error-summary.ts';
import { CLOSED, NEEDS_CODE, toApiError } from './errors.ts';
import { tr } from './i18n.ts';
import { signerInput } from './session.ts';
import type { SigningPage } from './signing-state.ts';
import { viewForError } from './status.ts';
import { valuesByName } from './values.ts';

/** Autosave: changes go to signing.saveValues shortly after the signer stops changing things. */
export function scheduleSave(page: SigningPage): void {
  window.clearTimeout(page.saveTimer);
  if (page.open.preview) {
    page.ui.saveStatus.textContent = tr('save.preview');
    return;
  }
  page.ui.saveStatus.textContent = tr('save.unsaved');
  page.saveTimer = window.setTimeout(() => background(saveNow(page)), 800);
}

/** Codes worth another try in a moment: the save is repeated by itself. */
const TEMPORARY = new Set(['network', 'internal_error', 'rate_limited']);

/**
 * Sends the fields changed since the last save (one save at a time). `keepalive` is for the page
 * going away. False when the save failed; the fields stay marked unsaved.
 */
export async function saveNow(page: SigningPage, keepalive = false): Promise<boolean> {
  window.clearTimeout(page.saveTimer);
  while (page.saving) await page.saving.catch(() => {});
  if (page.done || !page.dirty.size || page.open.preview) return true;
  const batch = new Set(page.dirty);
  page.dirty.clear();
  page.ui.saveStatus.textContent = tr('save.saving');
  const input = { ...signerInput(), values: valuesByName(page.fields, page.values, batch) };
  const call = (keepalive ? signingOnExit : signing).saveValues.mutate(input);
  page.saving = call;
  try {
    await call;
    if (!page.dirty.size) page.ui.saveStatus.textContent = tr('save.saved');
    return true;
  } catch (e) {
    for (const id of batch) page.dirty.add(id);
    if (!page.done) saveFailed(page, e);
    return false;
  } finally {
    page.saving = null;
  }
}

function saveFailed(page: SigningPage, e: unknown): void {
  const err = toApiError(e);
  if (CLOSED.has(err.code)) page.flow.close(viewForError(err.code, err.message, err.messageKey));
  else if (NEEDS_CODE.has(err.code)) page.flow.restart();
  else if (TEMPORARY.has(err.code)) {
    page.ui.saveStatus.textContent = tr('save.retrying');
    page.saveTimer = window.setTimeout(() => background(saveNow(page)), 5000);
  } else {
    page.ui.saveStatus.textContent = tr('save.failed');
    showProblem(page.ui, tr('save.failed_detail', { reason: err.message }));
  }
}
