import { isImageFieldType } from '@esign/domain';
import { signing } from './api.ts';
import { announce, h } from './dom.ts';
import { notifyHost } from './embed.ts';
import { hideSummary, showProblem, showSummary } from './error-summary.ts';
import { CLOSED, NEEDS_CODE, toApiError } from './errors.ts';
import { paintField } from './field-display.ts';
import { formProblems } from './form.ts';
import { pageLocale, tr } from './i18n.ts';
import { modal } from './modal.ts';
import { confirmName } from './parts.ts';
import { signerInput } from './session.ts';
import { signatureMethods } from './signature-methods.ts';
import type { SigningPage } from './signing-state.ts';
import { type StatusView, signedView, viewForError } from './status.ts';
import {
  describeValue,
  isFilled,
  isImageValue,
  missingRequired,
  safeRedirect,
  valuesByName,
} from './values.ts';

/**
 * Finish: every required field must be filled (else the error summary); then the review step shows
 * what the signer entered with the consent sentence beside Sign, and Sign calls signing.complete.
 */
export async function finish(page: SigningPage): Promise<void> {
  const { ui } = page;
  if (page.done || ui.finish.disabled) return;
  const missing = missingRequired(page.fields, page.values);
  // Issue 46: what the server would refuse (a pattern, a range, a required conditional field).
  page.formMessages = formProblems(page);
  page.invalid = new Set([...missing.map((f) => f.id), ...page.formMessages.keys()]);
  for (const f of page.fields) paintField(page, f);
  if (page.invalid.size) return showSummary(page, true);
  hideSummary(ui);
  if (page.open.preview) {
    showProblem(ui, tr('review.preview_ok'));
    return;
  }
  let outcome: { view: StatusView; redirect: string | null } | null = null;
  // Issue 47: hosted in person, the signer confirms their name in the review step.
  const confirm = confirmName(page);
  const dialog = modal({
    title: tr('review.title'),
    description: tr('review.description'),
    content: [reviewList(page), ...(confirm?.field ?? [])],
    submitLabel: tr('review.sign'),
    // The sentence in the page's language: signing.complete records this same sentence (locale).
    footNote: tr('consent.text'),
    async submit() {
      const res = await complete(page, confirm?.input.value);
      if ('error' in res) return { ...res, input: confirm?.input ?? null };
      outcome = res;
      return null;
    },
  });
  await dialog.result;
  if (!outcome) return ui.finish.focus();
  const { view, redirect } = outcome;
  page.done = true;
  page.flow.close(view);
  if (redirect) window.location.assign(redirect);
}

/** The summary: each field the signer filled (or the sender prefilled) with its value. */
function reviewList(page: SigningPage): HTMLElement {
  const rows = page.fields.flatMap((f) => {
    const value = page.values.get(f.id) ?? null;
    if (!isFilled(value) && !f.required) return [];
    const shown =
      isImageFieldType(f.type) && isImageValue(value)
        ? h('img', { class: 'review-img', src: value, alt: describeValue(f, value) })
        : describeValue(f, value);
    return [h('dt', null, f.name), h('dd', null, shown, f.prefilled ? tr('review.by_sender') : null)];
  });
  if (!rows.length) return h('p', null, tr('review.nothing'));
  return h('dl', { class: 'review-list', 'aria-label': tr('review.list') }, rows);
}

/** signing.complete with what autosave has not sent yet; the outcome, or an error for the dialog. */
async function complete(
  page: SigningPage,
  confirmedName: string | undefined,
): Promise<{ view: StatusView; redirect: string | null } | { error: string }> {
  announce(tr('review.signing'));
  window.clearTimeout(page.saveTimer);
  while (page.saving) await page.saving.catch(() => {});
  try {
    // Saved progress is merged on the server, so only what autosave has not sent yet goes along
    // (a 10 MB attachment is not uploaded twice).
    const values = valuesByName(page.fields, page.values, page.dirty);
    const methods = signatureMethods(page.fields, page.values);
    const res = await signing.complete.mutate({
      ...signerInput(),
      values,
      signature_methods: methods,
      locale: pageLocale(),
      ...(confirmedName === undefined ? {} : { confirmed_name: confirmedName }),
    });
    page.dirty.clear();
    notifyHost('signed', { signature_request_id: page.open.request.id });
    const redirect = safeRedirect(res.redirect_url ?? page.open.redirect_url);
    const host = page.open.hosted_by;
    const view = signedView(!!redirect);
    // Hosted: the device goes back to its host.
    if (host)
      return { view: { ...view, body: tr('hosted.returning', { host: host.name ?? host.email }) }, redirect };
    return { view, redirect };
  } catch (e) {
    const err = toApiError(e);
    if (CLOSED.has(err.code))
      return { view: viewForError(err.code, err.message, err.messageKey), redirect: null };
    if (NEEDS_CODE.has(err.code)) {
      page.flow.restart();
      return {
        error: tr(
          page.open.signer.code_channel === 'sms' ? 'review.session_ended_sms' : 'review.session_ended',
        ),
      };
    }
    return {
      error: err.code === 'network' ? tr('review.network') : tr('review.failed', { reason: err.message }),
    };
  }
}
