import type { SignatureRequestRow, SignerRow, Tx } from '@esign/db';
import { findAccountPlan } from '@esign/db/queries/billing';
import { spendHostSessions } from '@esign/db/queries/host-sessions';
import {
  insertCreditConsumption,
  listRequestSigners,
  markSignerReady,
  markSignerSigned,
  markSigningRequestCompleted,
  markSigningRequestInProgress,
} from '@esign/db/queries/signing';
import type { Locale } from '@esign/i18n';
import { CoreError } from '../../errors.ts';
import { recordEvent } from '../events.ts';
import { readerLocale } from '../locale.ts';
import { purgeSignerMail } from '../mail-secrets.ts';
import type { FieldValue, RequestSnapshot, SnapshotField } from '../request-model.ts';
import { queueSealing, queueSignerCopy } from '../sealing/index.ts';
import { rearmAutoReminders } from '../signature-requests/auto-reminders.ts';
import { queueInvitation, senderNameOf } from '../signature-requests/index.ts';
import { noOutgoing, type Outgoing, sendOutgoingNow } from '../sms/index.ts';
import { consentText } from './consent.ts';
import {
  audit,
  mailCtx,
  type Resolved,
  requireSession,
  resolveLocked,
  type SignerCtx,
  scopeOfRequest,
} from './context.ts';
import { checkSubmission, type FormAudit, hasFormLogic } from './form-logic.ts';
import {
  assertKind,
  assertTurn,
  checkOf,
  hostEvidence,
  markStarted,
  mergeValues,
  type SigningInput,
} from './values.ts';

/**
 * signing.complete: validates required fields, signs (recording the consent sentence); a signer
 * whose signature does not complete the request gets their own copy (job signer.copy); the last
 * signature completes the request
 * (event, credit, sealing job); in sequential order the next signer is invited (emailed right
 * after the commit). The signer's link and code emails are purged: they no longer work.
 */
export async function completeSigning(
  sc: SignerCtx,
  input: SigningInput & {
    values: Record<string, unknown>;
    signature_methods?: Record<string, string>;
    locale?: Locale;
    confirmed_name?: string | undefined;
  },
) {
  const methods = input.signature_methods ?? {};
  const { result, mailIds } = await sc.db.transaction().execute(async (tx) => {
    const r = await resolveLocked(tx, input.token, sc.now);
    await requireSession(tx, sc, checkOf(r, input));
    assertKind(r, 'signer');
    assertTurn(r);
    const hosted = input.hosted ? await hostedStep(tx, sc, { r, confirmedName: input.confirmed_name }) : {};
    // The language the page showed: the consent sentence is recorded in it, and the dates and
    // numbers the signer typed are read as written in it.
    const locale =
      input.locale ??
      (await readerLocale(tx, { signer: r.signer, request: r.request, acceptLanguage: sc.acceptLanguage }))
        .locale;
    const merged = mergeValues(r, input.values, locale);
    const { fields } = merged;
    const { values, form } = await checkForm(tx, r, { values: merged.values, entered: input.values, locale });
    if (!form) assertRequired(fields, { ...(r.signer.prefill as Record<string, FieldValue>), ...values });
    await markStarted(tx, sc, r);
    await markSignerSigned(tx, r.signer.id, { values, ip: sc.ip, userAgent: sc.userAgent, now: sc.now });
    // The consent the signer gave (the sentence next to the Sign button, in the language the page
    // showed), at this entry's time, and how each signature was made.
    await audit(tx, sc, {
      r,
      type: 'signer.signed',
      data: {
        consent: consentText(locale),
        locale,
        ...signatureMethods(fields, methods),
        ...hosted,
        ...(form ? { form } : {}),
      },
    });
    await recordEvent(tx, scopeOfRequest(r.request), {
      type: 'signer.signed',
      objectType: 'signer',
      objectId: r.signer.id,
      now: sc.now,
    });
    await purgeSignerMail(tx, [r.signer.id], { what: 'all', now: sc.now });
    const { completed, mailIds } = await advanceRequest(tx, sc, r);
    // The signer's own copy right away; the last signer's comes with the final seal.
    if (!completed) await queueSignerCopy(tx, r.signer.id);
    // Hosted: the device returns to the host (the request's page in the dashboard).
    const back = input.hosted ? requestPageUrl(sc.config, r.request.id) : null;
    return { result: { redirect_url: back ?? r.signer.redirect_url ?? r.request.redirect_url }, mailIds };
  });
  await sendOutgoingNow(mailCtx(sc), mailIds);
  return result;
}

/**
 * Issue 46: a request whose fields have form logic is checked with the signing page's evaluator
 * over every signer's values (422 naming the field); hidden fields are dropped and formulas
 * computed in what is stored. Without form logic: the values as merged, `form` undefined.
 */
async function checkForm(
  tx: Tx,
  r: Resolved,
  sub: { values: Record<string, FieldValue>; entered: Record<string, unknown>; locale: string },
): Promise<{ values: Record<string, FieldValue>; form?: FormAudit }> {
  const snapshot = r.request.snapshot as RequestSnapshot;
  if (!hasFormLogic(snapshot)) return { values: sub.values };
  const own = { ...(r.signer.prefill as Record<string, FieldValue>), ...sub.values };
  const signers = await listRequestSigners(tx, r.request.id);
  const checked = checkSubmission(snapshot, signers, { ...sub, role: r.signer.role ?? '', values: own });
  // What is stored is the signer's own entries, less hidden fields, with formulas computed.
  const values: Record<string, FieldValue> = {};
  for (const [name, v] of Object.entries(sub.values)) if (name in checked.values) values[name] = v;
  for (const [name, v] of Object.entries(checked.values))
    if (name in checked.audit.computed) values[name] = v;
  return { values, form: checked.audit };
}

/** The audit data of signer.signed: how each of this signer's signature / initials fields was made. */
function signatureMethods(fields: SnapshotField[], methods: Record<string, string>): Record<string, unknown> {
  const kept = Object.entries(methods).filter(([name]) =>
    fields.some((f) => f.name === name && (f.type === 'signature' || f.type === 'initials')),
  );
  return kept.length ? { signature_methods: Object.fromEntries(kept) } : {};
}

function assertRequired(fields: SnapshotField[], effective: Record<string, FieldValue>) {
  const missing = fields.filter(
    (f) =>
      f.required &&
      (effective[f.name] === undefined ||
        effective[f.name] === null ||
        (effective[f.name] === false && f.type === 'checkbox')),
  );
  if (missing.length) {
    const names = missing.map((f) => f.name).join(', ');
    throw new CoreError(
      'invalid_request',
      `Required field${missing.length > 1 ? 's' : ''} missing: ${names}`,
      {
        messageKey: 'error.missing_fields',
        messageValues: { count: missing.length, names },
      },
    );
  }
}

/** The dashboard page of a request: where a hosted device returns to its host. */
export const requestPageUrl = (config: SignerCtx['config'], id: number) =>
  `${config.PUBLIC_URL}/requests/${id}`;

/**
 * Issue 47: a hosted step needs the host's device and the signer confirming their name (as the
 * sender wrote it, letter case and spaces aside); the host session is spent with it.
 */
export async function hostedStep(
  tx: Tx,
  sc: SignerCtx,
  step: { r: Resolved; confirmedName: string | undefined },
) {
  const { r, confirmedName } = step;
  const evidence = await hostEvidence(tx, sc, r);
  const norm = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase();
  const expected = r.signer.name ?? r.signer.email ?? r.signer.phone ?? '';
  if (!confirmedName || norm(confirmedName) !== norm(expected)) {
    throw new CoreError(
      'invalid_parameter',
      `confirmed_name: type your name as it is written (${expected}) to confirm it is you`,
      {
        messageKey: 'error.hosted_name',
      },
    );
  }
  await spendHostSessions(tx, r.signer.id, sc.now);
  return { ...evidence, confirmed_name: confirmedName.trim() };
}

/** After a signature: complete the request, or mark it in progress and invite the next signer. */
export async function advanceRequest(
  tx: Tx,
  sc: SignerCtx,
  r: Resolved,
): Promise<{ completed: boolean; mailIds: Outgoing }> {
  const all = await listRequestSigners(tx, r.request.id);
  if (all.every((s) => s.status === 'signed')) {
    await markSigningRequestCompleted(tx, r.request.id, sc.now);
    await consumeCredit(tx, r.request, sc.now);
    await queueSealing(tx, r.request.id);
    await recordEvent(tx, scopeOfRequest(r.request), {
      type: 'signature_request.completed',
      objectType: 'signature_request',
      objectId: r.request.id,
      now: sc.now,
    });
    return { completed: true, mailIds: noOutgoing() };
  }
  await markSigningRequestInProgress(tx, r.request.id, sc.now);
  if (r.request.signing_order !== 'sequential') return { completed: false, mailIds: noOutgoing() };
  const next = all.find((s) => s.status === 'waiting');
  return {
    completed: false,
    mailIds: next ? await inviteNext(tx, sc, { request: r.request, next }) : noOutgoing(),
  };
}

async function inviteNext(tx: Tx, sc: SignerCtx, turn: { request: SignatureRequestRow; next: SignerRow }) {
  const { request } = turn;
  const ready = await markSignerReady(tx, turn.next.id, sc.now);
  if (!request.send_email || (!ready.email && !ready.phone)) return noOutgoing();
  const sender = await senderNameOf(tx, request);
  const invited = await queueInvitation(tx, sc.config, {
    request,
    signer: ready,
    kind: 'next_signer',
    senderName: sender,
    now: sc.now,
  });
  // Their automatic reminders (issue 34.2) count from this invitation.
  await rearmAutoReminders(tx, request, sc.now);
  return invited;
}

/** One credit the first time a request made from a template completes (live, credit plans). */
async function consumeCredit(tx: Tx, request: SignatureRequestRow, now: Date) {
  if (request.environment !== 'live' || !request.template_id) return;
  if ((await findAccountPlan(tx, request.account_id)) === 'lifetime') return;
  await insertCreditConsumption(tx, {
    accountId: request.account_id,
    templateId: request.template_id,
    requestId: request.id,
    now,
  });
}
