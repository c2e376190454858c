/**
 * The signing page's entry (bundled by ../assets.ts): opens the link with signing.open and shows
 * what fits: the document to sign, the email code gate, or a page saying why it cannot be signed.
 */

import { background } from './dom.ts';
import { loadFormLogic } from './form.ts';
import { adoptOpenLocale, localeReady, onLocaleChosen } from './i18n.ts';
import './styles.css';
import { signing } from './api.ts';
import { applyBrand } from './brand.ts';
import { showCodeGate } from './code-gate.ts';
import { notifyHost } from './embed.ts';
import { toApiError } from './errors.ts';
import { saveNow } from './saving.ts';
import { type Flow, showLoading, showStatus } from './screen.ts';
import { signerInput } from './session.ts';
import { showSigningPage } from './signing-page.ts';
import type { SigningPage } from './signing-state.ts';
import { viewForError, viewForOpen } from './status.ts';
import type { OpenResult } from './types.ts';

let current: SigningPage | null = null;

// Issue 32: a language the signer chose is theirs (signing.setLocale), best effort: the page works
// in it whatever the answer (before the code is entered, the server refuses and the choice stays
// in this browser until the page opens again with the session).
onLocaleChosen((locale) =>
  background(
    signing.setLocale.mutate({ ...signerInput(), locale }).then(
      () => undefined,
      () => undefined,
    ),
  ),
);

const flow: Flow = {
  restart: () => background(start()),
  close: (view) => {
    current = null;
    showStatus(view, flow.restart);
  },
};

async function start(): Promise<void> {
  current = null;
  // The shell's loading words are in the browser's language; ours wait for its catalogue.
  await localeReady();
  showLoading();
  let open: OpenResult;
  try {
    open = await signing.open.query(signerInput());
  } catch (e) {
    const err = toApiError(e);
    notifyHost('error', { code: err.code, message: err.message });
    await localeReady();
    applyBrand({ brand: err.brand });
    return flow.close(viewForError(err.code, err.message, err.messageKey));
  }
  await adoptOpenLocale(open);
  applyBrand(open);
  const closed = viewForOpen(open);
  notifyHost('loaded', { status: closed ? 'closed' : open.code_required ? 'code_required' : 'ready' });
  if (closed) return flow.close(closed);
  if (open.code_required) return showCodeGate(open, flow);
  await loadFormLogic(open);
  current = showSigningPage(open, flow);
}

// Unsaved progress goes out when the page is hidden (tab switch, phone lock, navigation).
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'hidden' && current && !current.done && current.dirty.size) {
    background(saveNow(current, true));
  }
});

background(start());
