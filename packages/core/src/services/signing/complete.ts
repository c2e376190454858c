import { json, type SignatureRequestRow, type SignerRow, type Tx } from '@esign/db';
import { CoreError } from '../../errors.ts';
import { recordEvent } from '../events.ts';
import { sendMailNow } from '../mail.ts';
import { purgeSignerMail } from '../mail-secrets.ts';
import type { FieldValue, SnapshotField } from '../request-model.ts';
import { queueSealing, queueSignerCopy } from '../sealing/index.ts';
import { queueInvitation, senderNameOf } from '../signature-requests/index.ts';
import { SIGNING_CONSENT_TEXT } from './consent.ts';
import {
  audit,
  mailCtx,
  type Resolved,
  requireSession,
  resolve,
  type SignerCtx,
  scopeOfRequest,
} from './context.ts';
import { assertTurn, markStarted, mergeValues } from './values.ts';

/**
 * signing.complete: validates required fields, signs (recording the consent sentence); a signer
 * whose signature does not complete the request gets their own copy (job signer.copy); the last
 * signature completes the request
 * (event, credit, sealing job); in sequential order the next signer is invited (emailed right
 * after the commit). The signer's link and code emails are purged: they no longer work.
 */
export async function completeSigning(
  sc: SignerCtx,
  token: string,
  session: string | undefined,
  valuesIn: Record<string, unknown>,
  methods: Record<string, string> = {},
) {
  const { result, mailIds } = await sc.db.transaction().execute(async (tx) => {
    const r = await resolve(tx, token, sc.now, { lock: true });
    await requireSession(sc, tx, r.signer, session);
    assertTurn(r);
    const { fields, values } = mergeValues(r, valuesIn);
    assertRequired(fields, { ...(r.signer.prefill as Record<string, FieldValue>), ...values });
    await markStarted(tx, r, sc);
    await tx
      .updateTable('signers')
      .set({
        values: json(values),
        status: 'signed',
        signed_at: sc.now,
        ip: sc.ip,
        user_agent: sc.userAgent,
        updated_at: sc.now,
      })
      .where('id', '=', r.signer.id)
      .execute();
    // The consent the signer gave (the sentence next to the Sign button), at this entry's time, and
    // how each signature was made.
    await audit(tx, r, sc, 'signer.signed', {
      consent: SIGNING_CONSENT_TEXT,
      ...signatureMethods(fields, methods),
    });
    await recordEvent(tx, scopeOfRequest(r.request), {
      type: 'signer.signed',
      objectType: 'signer',
      objectId: r.signer.id,
      now: sc.now,
    });
    await purgeSignerMail(tx, [r.signer.id], 'all', sc.now);
    const { completed, mailIds } = await advanceRequest(tx, sc, r);
    // The signer's own copy right away; the last signer's comes with the final seal.
    if (!completed) await queueSignerCopy(tx, r.signer.id);
    return { result: { redirect_url: r.signer.redirect_url ?? r.request.redirect_url }, mailIds };
  });
  if (mailIds.length) await sendMailNow(mailCtx(sc), mailIds);
  return result;
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
    throw new CoreError(
      'invalid_request',
      `Required field${missing.length > 1 ? 's' : ''} missing: ${missing.map((f) => f.name).join(', ')}`,
    );
  }
}

/** After a signature: complete the request, or mark it in progress and invite the next signer. */
async function advanceRequest(
  tx: Tx,
  sc: SignerCtx,
  r: Resolved,
): Promise<{ completed: boolean; mailIds: number[] }> {
  const all = await tx
    .selectFrom('signers')
    .selectAll()
    .where('signature_request_id', '=', r.request.id)
    .orderBy('position')
    .execute();
  if (all.every((s) => s.status === 'signed')) {
    await tx
      .updateTable('signature_requests')
      .set({ status: 'completed', completed_at: sc.now, updated_at: sc.now })
      .where('id', '=', r.request.id)
      .execute();
    await consumeCredit(tx, r.request, sc.now);
    await queueSealing(tx, r.request.id);
    await recordEvent(tx, scopeOfRequest(r.request), {
      type: 'signature_request.completed',
      objectType: 'signature_request',
      objectId: r.request.id,
      now: sc.now,
    });
    return { completed: true, mailIds: [] };
  }
  await tx
    .updateTable('signature_requests')
    .set({ status: 'in_progress', updated_at: sc.now })
    .where('id', '=', r.request.id)
    .execute();
  if (r.request.signing_order !== 'sequential') return { completed: false, mailIds: [] };
  const next = all.find((s) => s.status === 'waiting');
  return { completed: false, mailIds: next ? await inviteNext(tx, sc, r.request, next) : [] };
}

async function inviteNext(tx: Tx, sc: SignerCtx, request: SignatureRequestRow, next: SignerRow) {
  const ready = await tx
    .updateTable('signers')
    .set({ status: 'ready', invited_at: sc.now, updated_at: sc.now })
    .where('id', '=', next.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  if (!request.send_email || !ready.email) return [];
  const sender = await senderNameOf(tx, request);
  return [await queueInvitation(tx, sc.config, request, ready, 'next_signer', sender, sc.now)];
}

/** One credit the first time a request made from a template completes (live, credit plans). */
async function consumeCredit(tx: Tx, request: SignatureRequestRow, now: Date) {
  if (request.environment !== 'live' || !request.template_id) return;
  const account = await tx
    .selectFrom('accounts')
    .select('plan')
    .where('id', '=', request.account_id)
    .executeTakeFirstOrThrow();
  if (account.plan === 'lifetime') return;
  await tx
    .insertInto('credit_ledger')
    .values({
      account_id: request.account_id,
      delta: -1,
      reason: 'consume',
      template_id: request.template_id,
      signature_request_id: request.id,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['account_id', 'template_id']).where('reason', '=', 'consume').doNothing())
    .execute();
}
