import type { SignatureRequestRow, SignerRow, Tx } from '@esign/db';
import {
  expireRequestsDue,
  markRequestCanceled,
  markRequestReminded,
} from '@esign/db/queries/signature-requests';
import { findSignersWithContact } from '@esign/db/queries/signers';
import { OPEN_REQUEST_STATUSES } from '@esign/domain';
import { type Actor, type Scope, scopeOf } from '../../context.ts';
import type { SignatureRequestDto } from '../../contracts/signature-requests.ts';
import { CoreError } from '../../errors.ts';
import { type AuditBy, recordAudit } from '../audit.ts';
import { recordEvent } from '../events.ts';
import { commitIdempotentOutcome } from '../idempotency.ts';
import type { ServiceContext } from '../service-context.ts';
import { addOutgoing, noOutgoing, type Outgoing } from '../sms/index.ts';
import { signatureRequestDto } from './dto.ts';
import { queueInvitation, sendQueuedMail } from './invitations.ts';
import { queueClosingNotices, queueExpiryNotices } from './notices.ts';
import { lockRequest, type RequestView, requestViewOf, requireRequestView, senderNameOf } from './queries.ts';
import { assertOpenForChange, REMIND_INTERVAL_MS, wasInvitedByEmail } from './status.ts';

// What happens to a request after it was sent: read, cancel, remind, expire. Each change runs in
// one transaction that locks the request within the actor's account side.

type DtoContext = Pick<ServiceContext, 'db' | 'config' | 'now'>;

async function requestResult(
  sc: DtoContext,
  row: SignatureRequestRow | RequestView,
): Promise<SignatureRequestDto> {
  const view = 'template_archived' in row ? row : await requestViewOf(sc.db, row);
  return signatureRequestDto(sc.db, view, { config: sc.config, now: sc.now(), withValues: true });
}

/** GET /signature_requests/{id}: every signer with values and, once completed, the documents. */
export async function getSignatureRequest(
  sc: DtoContext,
  scope: Scope,
  id: number,
): Promise<SignatureRequestDto> {
  return requestResult(sc, await requireRequestView(sc.db, scope, id));
}

async function cancelLocked(
  tx: Tx,
  sc: Pick<ServiceContext, 'config'>,
  o: { actor: Actor; id: number; now: Date },
): Promise<SignatureRequestRow> {
  const { actor, id, now } = o;
  const scope = scopeOf(actor);
  const row = await lockRequest(tx, scope, id);
  if (row.status === 'canceled') return row;
  assertOpenForChange(row, now, 'it cannot be canceled');
  const canceled = await markRequestCanceled(tx, id, now);
  await recordAudit(tx, scope, {
    type: 'request.canceled',
    by: { kind: 'actor', actor },
    signatureRequestId: id,
    now,
  });
  await recordEvent(tx, scope, {
    type: 'signature_request.canceled',
    objectType: 'signature_request',
    objectId: id,
    now,
  });
  await queueClosingNotices(tx, sc.config, { request: canceled, outcome: 'canceled' });
  return canceled;
}

/**
 * POST /signature_requests/{id}/cancel: canceling a canceled request returns it unchanged; a
 * completed one is `422 already_completed`; a declined or expired one `422 not_open`.
 */
export async function cancelSignatureRequest(
  sc: ServiceContext,
  actor: Actor,
  id: number,
): Promise<SignatureRequestDto> {
  const now = sc.now();
  const row = await sc.db.transaction().execute(async (tx) => {
    const canceled = await cancelLocked(tx, sc, { actor, id, now });
    // The Idempotency-Key's outcome commits with the cancel (issue 41): its retry reads the request.
    await commitIdempotentOutcome(tx, sc.idempotency, { resource: { type: 'signature_request', id } });
    return canceled;
  });
  return requestResult(sc, row);
}

export interface ReminderDto {
  object: 'reminder';
  signature_request_id: number;
  reminded_signer_ids: number[];
}

/** The signers `remind` may reach: invited, not finished, with an email or a phone (never those waiting for their turn). */
export async function remindableSigners(tx: Tx, requestId: number): Promise<SignerRow[]> {
  return (await findSignersWithContact(tx, requestId, ['ready', 'sent', 'viewed'])).filter(wasInvitedByEmail);
}

/** When the request may be reminded again (one reminder per request per hour), or null when now. */
export function remindAllowedAt(row: SignatureRequestRow, now: Date): Date | null {
  if (!row.last_reminded_at) return null;
  const at = new Date(row.last_reminded_at.getTime() + REMIND_INTERVAL_MS);
  return at > now ? at : null;
}

/**
 * The one way signers are reminded (POST .../remind and the automatic reminders of issue 34.2), on
 * the locked request: each signer's link sent again by their channel (email, SMS), the request
 * marked reminded, one audit entry. Returns what was queued (sent after the commit, or by the worker).
 */
export async function remindLockedSigners(
  sc: Pick<ServiceContext, 'config'>,
  tx: Tx,
  o: { request: SignatureRequestRow; signers: SignerRow[]; by: AuditBy; now: Date; automatic?: boolean },
): Promise<Outgoing> {
  const { request: row, now } = o;
  const sender = await senderNameOf(tx, row);
  const out = noOutgoing();
  for (const s of o.signers)
    addOutgoing(
      out,
      await queueInvitation(tx, sc.config, {
        request: row,
        signer: s,
        kind: 'reminder',
        senderName: sender,
        now,
      }),
    );
  await markRequestReminded(tx, row.id, now);
  await recordAudit(
    tx,
    { accountId: row.account_id, environment: row.environment },
    {
      type: 'request.reminded',
      by: o.by,
      signatureRequestId: row.id,
      data: { signer_ids: o.signers.map((s) => s.id), ...(o.automatic ? { automatic: true } : {}) },
      now,
    },
  );
  return out;
}

async function remindLocked(sc: ServiceContext, tx: Tx, actor: Actor, id: number, now: Date) {
  const row = await lockRequest(tx, scopeOf(actor), id);
  assertOpenForChange(row, now, 'its signers cannot be reminded');
  const allowedAt = remindAllowedAt(row, now);
  if (allowedAt) {
    const retry = Math.ceil((allowedAt.getTime() - now.getTime()) / 1000);
    throw new CoreError(
      'remind_too_soon',
      `Signers of this request were reminded less than an hour ago; retry in ${retry} s`,
      { retryAfterSeconds: retry },
    );
  }
  // Invited, not finished, with an email or a phone (SMS); signers waiting for their turn are not reminded.
  const signers = await remindableSigners(tx, id);
  if (signers.length === 0) {
    throw new CoreError(
      'nothing_to_remind',
      'No signer is waiting to sign who was invited by email or SMS and has an email address or phone',
    );
  }
  const mailIds = await remindLockedSigners(sc, tx, {
    request: row,
    signers,
    by: { kind: 'actor', actor },
    now,
  });
  return { signerIds: signers.map((s) => s.id), mailIds };
}

/**
 * POST /signature_requests/{id}/remind: emails (or texts, sms/delivery.ts) the link again to every
 * signer who has been invited, has not signed or declined and has an email or a phone; at most once per request per hour
 * (`429 remind_too_soon`); none to remind is `422 nothing_to_remind`. The emails go out after commit.
 */
export async function remindSigners(sc: ServiceContext, actor: Actor, id: number): Promise<ReminderDto> {
  const now = sc.now();
  const { answer, mailIds } = await sc.db.transaction().execute(async (tx) => {
    const reminded = await remindLocked(sc, tx, actor, id, now);
    const dto: ReminderDto = {
      object: 'reminder',
      signature_request_id: id,
      reminded_signer_ids: reminded.signerIds,
    };
    // A reminder is no resource to read again: the Idempotency-Key's outcome is the answer itself,
    // committed with the reminder (issue 41), so a retry gets these signers and reminds no one.
    await commitIdempotentOutcome(tx, sc.idempotency, {
      resource: { type: 'signature_request', id },
      body: dto,
    });
    return { answer: dto, mailIds: reminded.mailIds };
  });
  await sendQueuedMail(sc, mailIds);
  return answer;
}

/**
 * The worker's sweep: unfinished requests past expires_at become `expired`; their notify addresses
 * are told in the same transaction (issue 34, notices.ts). Returns how many expired.
 */
export async function expireOverdueRequests(
  sc: Pick<ServiceContext, 'db' | 'config'>,
  now: Date,
): Promise<number> {
  return sc.db.transaction().execute(async (tx) => {
    const ids = await expireRequestsDue(tx, { statuses: OPEN_REQUEST_STATUSES, now });
    await queueExpiryNotices(tx, sc.config, ids);
    return ids.length;
  });
}
