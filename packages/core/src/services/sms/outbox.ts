import type { Environment, Executor, SmsRow, Tx } from '@esign/db';
import { json } from '@esign/db';
import { markInvitedSignerSent } from '@esign/db/queries/mail';
import { claimOutboxMessage, markOutboxNotSent, recordOutboxAttemptFailed } from '@esign/db/queries/outbox';
import {
  countAccountSmsSince,
  findSmsOptOut,
  insertSms,
  listSmsRows,
  lockAccountSms,
  markSmsDelivered,
} from '@esign/db/queries/sms';
import type { Config } from '../../config.ts';
import { CoreError } from '../../errors.ts';
import { recordAudit } from '../audit.ts';
import { enqueueJob, type JobContext, type JobHandler, type JobKind, RetryIn, RetryLater } from '../jobs.ts';
import { MESSAGE_MAX_ATTEMPTS, messageRetryDelayMs, retryWindowOver } from '../message-retry.ts';
import { SIGNING_LINK_KINDS } from '../secret-markers.ts';
import { cappedContext, tellSenderSmsCapped } from './capped.ts';
import { normalisePhone } from './phone.ts';
import { purgeSentSms } from './secrets.ts';
import { SmsRefused, sendTwilioSms } from './twilio.ts';
import { tellSenderSmsUndeliverable } from './undeliverable.ts';

// The SMS outbox (issue 32), delivered like the mail outbox: a message is written with its job in
// the transaction of its cause, goes out right after the commit when it can, and the worker's job
// retries the rest. Without SMS_PROVIDER the outbox is the channel (`esign sms list`).

export const SMS_SEND_JOB = 'sms.send' satisfies JobKind;
const DAY_MS = 24 * 3600_000;
const URL_PATTERN = /https?:\/\/[^\s<>"')]+/g;

export interface SmsMessage {
  kind: string;
  /** E.164 */
  to: string;
  text: string;
  accountId: number;
  environment: Environment;
  signatureRequestId: number | null;
  signerId: number | null;
}

/**
 * Puts an SMS in the outbox and its delivery job in the caller's transaction. Past the account's
 * SMS_DAILY_LIMIT (any 24 hours, live and test sides together) the message is written `capped` and
 * never sent, the request's timeline says so (`sms.capped`) and the sender is told (capped.ts).
 * Returns the message id.
 */
export async function queueSms(
  tx: Tx,
  o: { config: Config; now: Date; message: SmsMessage },
): Promise<number> {
  const { message: m, now } = o;
  await lockAccountSms(tx, m.accountId);
  const used = await countAccountSmsSince(tx, m.accountId, new Date(now.getTime() - DAY_MS));
  const capped = used >= o.config.SMS_DAILY_LIMIT;
  // Issue 42.7: a number that replied STOP gets nothing more (inbound.ts).
  const optedOut = await findSmsOptOut(tx, m.to);
  const toSender =
    capped && !optedOut && m.signatureRequestId !== null
      ? { ...m, signatureRequestId: m.signatureRequestId }
      : null;
  // Read before this message is written: whether the request had a capped SMS already today.
  const context = toSender ? await cappedContext(tx, toSender, now) : undefined;
  const id = await insertSms(tx, {
    kind: m.kind,
    to_number: m.to,
    text_body: m.text,
    links: json([...new Set(m.text.match(URL_PATTERN) ?? [])]),
    account_id: m.accountId,
    environment: m.environment,
    signature_request_id: m.signatureRequestId,
    signer_id: m.signerId,
    created_at: now,
    ...(optedOut
      ? {
          status: 'opted_out' as const,
          last_error: `not sent: the number replied STOP on ${optedOut.toISOString().slice(0, 10)} (opted out of SMS)`,
        }
      : capped
        ? {
            status: 'capped' as const,
            last_error: `not sent: the account reached its limit of ${o.config.SMS_DAILY_LIMIT} SMS in 24 hours (SMS_DAILY_LIMIT)`,
          }
        : {}),
  });
  const ref = {
    id,
    kind: m.kind,
    account_id: m.accountId,
    environment: m.environment,
    signature_request_id: m.signatureRequestId,
    signer_id: m.signerId,
  };
  if (optedOut) await auditSms(tx, { sms: ref, type: 'sms.opted_out', now });
  else if (capped) {
    await auditSms(tx, { sms: ref, type: 'sms.capped', now, data: { limit: o.config.SMS_DAILY_LIMIT } });
    if (toSender) await tellSenderSmsCapped(tx, { config: o.config, now, sms: toSender, context });
  } else
    await enqueueJob(tx, { kind: SMS_SEND_JOB, payload: { smsId: id }, maxAttempts: MESSAGE_MAX_ATTEMPTS });
  return id;
}

type SmsRef = Pick<
  SmsRow,
  'id' | 'kind' | 'account_id' | 'environment' | 'signature_request_id' | 'signer_id'
>;

/** The request's timeline (its audit trail) records what became of each SMS to its signers. */
async function auditSms(
  tx: Executor,
  o: { sms: SmsRef; type: string; now: Date; data?: Record<string, unknown> },
): Promise<void> {
  const { sms } = o;
  if (!sms.account_id || !sms.environment || !sms.signature_request_id) return;
  await recordAudit(
    tx,
    { accountId: sms.account_id, environment: sms.environment },
    {
      type: o.type,
      by: { kind: 'system' },
      signatureRequestId: sms.signature_request_id,
      signerId: sms.signer_id,
      data: { sms_id: sms.id, kind: sms.kind, ...o.data },
      now: o.now,
    },
  );
}

const INVITING_KINDS = new Set<string>(SIGNING_LINK_KINDS);

async function delivered(
  tx: Tx,
  ctx: JobContext,
  o: { sms: SmsRow; status: 'sent' | 'kept'; providerId: string | null },
): Promise<void> {
  const now = ctx.now();
  await markSmsDelivered(tx, o.sms.id, { status: o.status, providerId: o.providerId, now });
  // Taken by the provider: the outbox no longer needs the link or code (secrets.ts).
  if (o.status === 'sent') await purgeSentSms(tx, o.sms.id, now);
  // A signer who has only a phone counts as `sent` once the SMS went out.
  if (o.sms.signer_id && INVITING_KINDS.has(o.sms.kind))
    await markInvitedSignerSent(tx, o.sms.signer_id, now);
  await auditSms(tx, {
    sms: o.sms,
    type: 'sms.sent',
    now,
    data: { status: o.status, ...(o.providerId ? { provider_id: o.providerId } : {}) },
  });
}

/** One attempt on a locked message; returns the error to retry with, or null when settled. */
async function attempt(
  tx: Tx,
  ctx: JobContext,
  o: { sms: SmsRow; lastAttempt: boolean; attempts: number },
): Promise<unknown> {
  const { sms } = o;
  if (!ctx.config.SMS_PROVIDER) {
    await delivered(tx, ctx, { sms, status: 'kept', providerId: null });
    return null;
  }
  try {
    const providerId = await sendTwilioSms(ctx.config, ctx.deps, { to: sms.to_number, body: sms.text_body });
    await delivered(tx, ctx, { sms, status: 'sent', providerId });
    return null;
  } catch (err) {
    const giveUp = err instanceof SmsRefused || o.lastAttempt || retryWindowOver(ctx.config, sms, ctx.now());
    const error = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
    // Recorded in this transaction (it holds the row), which then commits; the job retries.
    await recordOutboxAttemptFailed(tx, 'sms_outbox', {
      id: sms.id,
      error,
      status: giveUp ? 'undeliverable' : 'failed',
    });
    await auditSms(tx, {
      sms,
      type: 'sms.failed',
      now: ctx.now(),
      data: { attempt: sms.attempts + 1, error, retried: !giveUp },
    });
    if (!giveUp) return new RetryIn(messageRetryDelayMs(o.attempts), err);
    await tellSenderSmsUndeliverable(tx, { config: ctx.config, now: ctx.now(), sms, error });
    if (!(err instanceof SmsRefused))
      ctx.logger.error(
        { err, smsId: sms.id, attempts: sms.attempts + 1 },
        `SMS ${sms.id} is undeliverable: its retry window (MESSAGE_RETRY_HOURS) ran out; once the provider takes messages again, run \`esign sms retry --id ${sms.id}\` (or \`--all\`)`,
      );
    return null;
  }
}

/**
 * Job `sms.send`: Twilio when SMS_PROVIDER=twilio (then the body is purged from the outbox), else
 * the message is kept in the outbox, which counts as delivered. A failed attempt is `failed` and
 * retried on message-retry.ts's back-off; a refusal, or a failure past the message's retry window
 * (MESSAGE_RETRY_HOURS), makes it `undeliverable` (`esign sms retry` queues it again). The
 * row is locked while sending, so the worker and an immediate send never both send it.
 */
export const sendSmsJob: JobHandler = async (ctx, payload, job) => {
  const id = Number(payload.smsId);
  const lastAttempt = job?.max_attempts !== undefined && job.attempts >= job.max_attempts;
  const failure = await ctx.db.transaction().execute(async (tx): Promise<unknown> => {
    const claim = await claimOutboxMessage(tx, 'sms_outbox', id);
    if (!claim.row) return claim.busy ? new RetryLater(`SMS ${id} is being sent by another process`) : null;
    const sms = claim.row;
    if (sms.redacted_at) {
      await markOutboxNotSent(tx, 'sms_outbox', {
        id,
        status: 'undeliverable',
        reason: 'not sent: its signing link or code no longer works',
      });
      return null;
    }
    return attempt(tx, ctx, { sms, lastAttempt, attempts: job?.attempts ?? 1 });
  });
  if (failure) throw failure;
};

/** Sends queued SMS right away (after the commit that queued them), bounded in time; the worker retries the rest. */
export async function sendSmsNow(ctx: JobContext, smsIds: number[], timeoutMs = 3000): Promise<void> {
  if (smsIds.length === 0) return;
  const work = Promise.all(smsIds.map((smsId) => sendSmsJob(ctx, { smsId }, {} as never).catch(() => {})));
  await Promise.race([work, new Promise((r) => setTimeout(r, timeoutMs).unref())]);
}

/** `esign sms list`: the latest messages, newest first; `to` in any international format. */
export async function listSms(db: Executor, opts: { to?: string; limit?: number }) {
  const limit = opts.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    throw new CoreError('invalid_parameter', 'limit must be an integer from 1 to 1000');
  }
  const to = opts.to === undefined ? undefined : normalisePhone(opts.to, '--to');
  const rows = await listSmsRows(db, { to, limit });
  return {
    data: rows.map((m) => ({
      id: m.id,
      to: m.to_number,
      text: m.text_body,
      links: m.links,
      status: m.status,
      created_at: m.created_at.toISOString(),
      kind: m.kind,
      attempts: m.attempts,
      last_error: m.last_error,
      /** set once the body and links were removed (secrets.ts) */
      redacted_at: m.redacted_at?.toISOString() ?? null,
    })),
  };
}
