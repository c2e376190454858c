import { json, type Tx } from '@esign/db';
import { CoreError } from '../../errors.ts';
import { recordEvent } from '../events.ts';
import { isImageField, normaliseValues } from '../field-values.ts';
import { purgeSignerMail } from '../mail-secrets.ts';
import type { FieldValue, RequestSnapshot } from '../request-model.ts';
import { signerFields } from '../signature-requests/index.ts';
import { audit, type Resolved, requireSession, resolve, type SignerCtx, scopeOfRequest } from './context.ts';

/**
 * The signer's values merged over what they saved before. Every new value goes through the one
 * value check (field-values.ts); an image the signer already saved (already checked and
 * re-encoded) is not decoded again when the page sends it back unchanged.
 */
export function mergeValues(r: Resolved, valuesIn: Record<string, unknown>) {
  const snapshot = r.request.snapshot as RequestSnapshot;
  const fields = signerFields(snapshot, r.signer.role);
  const prefill = r.signer.prefill as Record<string, FieldValue>;
  const saved = r.signer.values as Record<string, FieldValue>;
  const fresh: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(valuesIn)) {
    if (prefill[name] !== undefined && prefill[name] !== null && value !== prefill[name]) {
      throw new CoreError(
        'invalid_request',
        `Field "${name}" was filled in by the sender and cannot be changed`,
      );
    }
    const field = fields.find((f) => f.name === name);
    if (field && isImageField(field.type) && typeof value === 'string' && value === saved[name]) continue;
    fresh[name] = value;
  }
  const normalised = normaliseValues(fields, fresh, 'values');
  return { fields, values: { ...saved, ...normalised } };
}

export function assertTurn(r: Resolved) {
  if (r.signer.status === 'waiting')
    throw new CoreError(
      'invalid_request',
      'It is not your turn to sign yet; an earlier signer must sign first',
    );
}

export async function markStarted(tx: Tx, r: Resolved, sc: SignerCtx) {
  if (r.signer.started_at) return;
  await tx.updateTable('signers').set({ started_at: sc.now }).where('id', '=', r.signer.id).execute();
  await audit(tx, r, sc, 'signer.started');
  await recordEvent(tx, scopeOfRequest(r.request), {
    type: 'signer.started',
    objectType: 'signer',
    objectId: r.signer.id,
    now: sc.now,
  });
}

/** signing.saveValues: stores progress; the first call emits signer.started. */
export async function saveSigningValues(
  sc: SignerCtx,
  token: string,
  session: string | undefined,
  valuesIn: Record<string, unknown>,
) {
  return sc.db.transaction().execute(async (tx) => {
    const r = await resolve(tx, token, sc.now, { lock: true });
    await requireSession(sc, tx, r.signer, session);
    assertTurn(r);
    const { values } = mergeValues(r, valuesIn);
    await tx
      .updateTable('signers')
      .set({ values: json(values), updated_at: sc.now })
      .where('id', '=', r.signer.id)
      .execute();
    await markStarted(tx, r, sc);
    return { saved: true as const, values: { ...(r.signer.prefill as object), ...values } };
  });
}

/**
 * signing.decline: the signer declines with a reason; the request becomes declined, and every
 * signing link and code of it stops working (their emails are purged).
 */
export async function declineSigning(
  sc: SignerCtx,
  token: string,
  session: string | undefined,
  reason: string,
) {
  return sc.db.transaction().execute(async (tx) => {
    const r = await resolve(tx, token, sc.now, { lock: true });
    await requireSession(sc, tx, r.signer, session);
    await tx
      .updateTable('signers')
      .set({
        status: 'declined',
        declined_at: sc.now,
        decline_reason: reason,
        ip: sc.ip,
        user_agent: sc.userAgent,
        updated_at: sc.now,
      })
      .where('id', '=', r.signer.id)
      .execute();
    await tx
      .updateTable('signature_requests')
      .set({ status: 'declined', declined_at: sc.now, updated_at: sc.now })
      .where('id', '=', r.request.id)
      .execute();
    await audit(tx, r, sc, 'signer.declined', { reason });
    await recordEvent(tx, scopeOfRequest(r.request), {
      type: 'signer.declined',
      objectType: 'signer',
      objectId: r.signer.id,
      now: sc.now,
    });
    const all = await tx
      .selectFrom('signers')
      .select('id')
      .where('signature_request_id', '=', r.request.id)
      .execute();
    await purgeSignerMail(
      tx,
      all.map((s) => s.id),
      'all',
      sc.now,
    );
    return { declined: true as const };
  });
}
