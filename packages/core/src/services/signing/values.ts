import type { Tx } from '@esign/db';
import {
  listRequestSignerIds,
  markSignerDeclined,
  markSignerStarted,
  markSigningRequestDeclined,
  saveSignerValues,
} from '@esign/db/queries/signing';
import { CoreError } from '../../errors.ts';
import { recordEvent } from '../events.ts';
import { isImageField, normaliseValues } from '../field-values.ts';
import { sameImage } from '../images.ts';
import { readerLocale } from '../locale.ts';
import { purgeSignerMail } from '../mail-secrets.ts';
import type { FieldValue, RequestSnapshot } from '../request-model.ts';
import { signerFields } from '../signature-requests/index.ts';
import { queueClosingNotices } from '../signature-requests/notices.ts';
import {
  audit,
  type Resolved,
  requireSession,
  resolveLocked,
  type SignerCtx,
  scopeOfRequest,
} from './context.ts';

/**
 * The signer's values merged over what they saved before. Every new value goes through the one
 * value check (field-values.ts), dates and numbers as written in the signer's `locale` (issue
 * 42.6); an image the signer already saved (already checked and re-encoded) is not decoded again
 * when the page sends it back unchanged.
 */
export function mergeValues(r: Resolved, valuesIn: Record<string, unknown>, locale: string) {
  const snapshot = r.request.snapshot as RequestSnapshot;
  const fields = signerFields(snapshot, r.signer.role);
  const prefill = r.signer.prefill as Record<string, FieldValue>;
  const saved = r.signer.values as Record<string, FieldValue>;
  const fresh: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(valuesIn)) {
    const field = fields.find((f) => f.name === name);
    const given = prefill[name];
    if (given !== undefined && given !== null && value !== given) {
      // The prefilled picture sent back as the client gave it (stored re-encoded): kept as stored.
      const picture = field && isImageField(field.type) && typeof value === 'string';
      if (picture && typeof given === 'string' && sameImage(value, given)) continue;
      throw new CoreError(
        'invalid_request',
        `Field "${name}" was filled in by the sender and cannot be changed`,
        {
          messageKey: 'error.prefilled',
          messageValues: { field: name },
        },
      );
    }
    if (field && isImageField(field.type) && typeof value === 'string' && value === saved[name]) continue;
    fresh[name] = value;
  }
  const normalised = normaliseValues(fields, fresh, { what: 'values', locale });
  return { fields, values: { ...saved, ...normalised } };
}

/** What every signing call that changes something brings: the link's token and the code session. */
export interface SigningInput {
  token: string;
  session?: string | undefined;
}

export function assertTurn(r: Resolved) {
  if (r.signer.status === 'waiting')
    throw new CoreError(
      'invalid_request',
      'It is not your turn to sign yet; an earlier signer must sign first',
      {
        messageKey: 'error.not_turn',
      },
    );
}

export async function markStarted(tx: Tx, sc: SignerCtx, r: Resolved) {
  if (r.signer.started_at) return;
  await markSignerStarted(tx, r.signer.id, sc.now);
  await audit(tx, sc, { r, type: 'signer.started' });
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
  input: SigningInput & { values: Record<string, unknown> },
) {
  return sc.db.transaction().execute(async (tx) => {
    const r = await resolveLocked(tx, input.token, sc.now);
    await requireSession(tx, sc, { signer: r.signer, session: input.session });
    assertTurn(r);
    const reader = { signer: r.signer, request: r.request, acceptLanguage: sc.acceptLanguage };
    const { values } = mergeValues(r, input.values, (await readerLocale(tx, reader)).locale);
    await saveSignerValues(tx, r.signer.id, { values, now: sc.now });
    await markStarted(tx, sc, r);
    return { saved: true as const, values: { ...(r.signer.prefill as object), ...values } };
  });
}

/**
 * signing.decline: the signer declines with a reason; the request becomes declined, and every
 * signing link and code of it stops working (their emails are purged).
 */
export async function declineSigning(sc: SignerCtx, input: SigningInput & { reason: string }) {
  const { reason } = input;
  return sc.db.transaction().execute(async (tx) => {
    const r = await resolveLocked(tx, input.token, sc.now);
    await requireSession(tx, sc, { signer: r.signer, session: input.session });
    await markSignerDeclined(tx, r.signer.id, { reason, ip: sc.ip, userAgent: sc.userAgent, now: sc.now });
    await markSigningRequestDeclined(tx, r.request.id, sc.now);
    await audit(tx, sc, { r, type: 'signer.declined', data: { reason } });
    await recordEvent(tx, scopeOfRequest(r.request), {
      type: 'signer.declined',
      objectType: 'signer',
      objectId: r.signer.id,
      now: sc.now,
    });
    await purgeSignerMail(tx, await listRequestSignerIds(tx, r.request.id), { what: 'all', now: sc.now });
    const by = r.signer.name ?? r.signer.email ?? r.signer.role ?? 'a signer';
    await queueClosingNotices(tx, sc.config, {
      request: r.request,
      outcome: 'declined',
      detail: `by ${by}: "${reason}"`,
    });
    return { declined: true as const };
  });
}
