import type { ParticipantKind, Tx } from '@esign/db';
import { spendHostSessions } from '@esign/db/queries/host-sessions';
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
  hostOf,
  type Resolved,
  requireSession,
  resolveLocked,
  type SignerCtx,
  scopeOfRequest,
} from './context.ts';
import { hostedElsewhere, hostedEvidence } from './hosted.ts';

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
  /** Issue 47: the page runs hosted on the host's device (services/signing/hosted.ts). */
  hosted?: boolean | undefined;
}

/** The session check of a signing call: its code session, or its host's device when hosted. */
export const checkOf = (r: Resolved, input: SigningInput) => ({
  signer: r.signer,
  session: input.session,
  hosted: input.hosted,
});

/**
 * Issue 47: only a participant of this kind may do this (an approver fills no field and does not
 * sign; a viewer only acknowledges; a signer neither approves nor acknowledges): 403 forbidden.
 */
export function assertKind(r: Resolved, kind: ParticipantKind) {
  if (r.signer.kind === kind) return;
  const does = {
    signer: 'fills fields and signs',
    approver: 'approves or rejects',
    viewer: 'acknowledges having read',
  };
  const article = (k: ParticipantKind) => (k === 'approver' ? 'an approver' : `a ${k}`);
  throw new CoreError(
    'forbidden',
    `You take part as ${article(r.signer.kind)}; only ${article(kind)} ${does[kind]}`,
    { messageKey: 'error.wrong_part' },
  );
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
    await requireSession(tx, sc, checkOf(r, input));
    assertKind(r, 'signer');
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
 * signing link and code of it stops working (their emails are purged). Issue 47: signing.reject is
 * the same for an approver (`rejected`): recorded as signer.rejected, and signer.rejected is sent
 * beside signer.declined (integrations that know only signer.declined still see the request end).
 */
export async function declineSigning(
  sc: SignerCtx,
  input: SigningInput & { reason: string },
  as: 'declined' | 'rejected' = 'declined',
) {
  const { reason } = input;
  return sc.db.transaction().execute(async (tx) => {
    const r = await resolveLocked(tx, input.token, sc.now);
    await requireSession(tx, sc, checkOf(r, input));
    if (as === 'rejected') {
      assertKind(r, 'approver');
      assertTurn(r);
    }
    const hosted = input.hosted ? await hostEvidence(tx, sc, r) : {};
    await markSignerDeclined(tx, r.signer.id, { reason, ip: sc.ip, userAgent: sc.userAgent, now: sc.now });
    await markSigningRequestDeclined(tx, r.request.id, sc.now);
    await audit(tx, sc, {
      r,
      type: `signer.${as}`,
      data: { reason, ...(r.signer.kind === 'signer' ? {} : { part: r.signer.kind }), ...hosted },
    });
    for (const type of as === 'rejected'
      ? (['signer.rejected', 'signer.declined'] as const)
      : (['signer.declined'] as const)) {
      await recordEvent(tx, scopeOfRequest(r.request), {
        type,
        objectType: 'signer',
        objectId: r.signer.id,
        now: sc.now,
      });
    }
    await purgeSignerMail(tx, await listRequestSignerIds(tx, r.request.id), { what: 'all', now: sc.now });
    await spendHostSessions(tx, r.signer.id, sc.now);
    const by = r.signer.name ?? r.signer.email ?? r.signer.role ?? 'a signer';
    await queueClosingNotices(tx, sc.config, {
      request: r.request,
      outcome: 'declined',
      detail: as === 'rejected' ? `rejected by the approver ${by}: "${reason}"` : `by ${by}: "${reason}"`,
    });
    return { declined: true as const };
  });
}

/** Issue 47: a hosted step's audit data (host, device, presence); 403 without the host's device. */
export async function hostEvidence(tx: Tx, sc: SignerCtx, r: Resolved): Promise<Record<string, unknown>> {
  const host = await hostOf(tx, sc, r.signer);
  if (!host) throw hostedElsewhere();
  return hostedEvidence(host, sc.userAgent);
}
