import type { Environment, Executor, Tx } from '@esign/db';
import { json } from '@esign/db';
import { insertMail, listMailRows, markInvitedSignerSent, markMailDelivered } from '@esign/db/queries/mail';
import { claimOutboxMessage, markOutboxNotSent, recordOutboxAttemptFailed } from '@esign/db/queries/outbox';
import nodemailer, { type Transporter } from 'nodemailer';
import { CoreError } from '../errors.ts';
import { brandedSender } from './brands/sender.ts';
import { enqueueJob, type JobHandler, type JobKind, RetryIn, RetryLater } from './jobs.ts';
import { purgeSentMail } from './mail-secrets.ts';
import { MESSAGE_MAX_ATTEMPTS, messageRetryDelayMs, retryWindowOver } from './message-retry.ts';
import { SIGNING_LINK_KINDS } from './secret-markers.ts';

export interface MailMessage {
  kind: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  replyTo?: string | null;
  accountId?: number | null;
  environment?: Environment | null;
  signerId?: number | null;
  /** Issue 44: the brand's sender identity, and the brand whose logo goes inline (`cid:brand-logo`). */
  fromName?: string | null;
  fromAddress?: string | null;
  brandId?: number | null;
}

export const MAIL_SEND_JOB = 'mail.send' satisfies JobKind;

const URL_PATTERN = /https?:\/\/[^\s<>"')]+/g;

/** Puts an email in the outbox and its delivery job in the same transaction as its cause. */
export async function queueMail(tx: Tx, mail: MailMessage): Promise<number> {
  const links = [...new Set(mail.text.match(URL_PATTERN) ?? [])];
  const mailId = await insertMail(tx, {
    kind: mail.kind,
    to_address: mail.to,
    reply_to: mail.replyTo ?? null,
    subject: mail.subject,
    text_body: mail.text,
    html_body: mail.html,
    links: json(links),
    account_id: mail.accountId ?? null,
    environment: mail.environment ?? null,
    signer_id: mail.signerId ?? null,
    from_name: mail.fromName ?? null,
    from_address: mail.fromAddress ?? null,
    brand_id: mail.brandId ?? null,
  });
  await enqueueJob(tx, { kind: MAIL_SEND_JOB, payload: { mailId }, maxAttempts: MESSAGE_MAX_ATTEMPTS });
  return mailId;
}

let transportCache: { url: string; transport: Transporter } | null = null;
function transportFor(url: string): Transporter {
  if (transportCache?.url !== url) transportCache = { url, transport: nodemailer.createTransport(url) };
  return transportCache.transport;
}

/** Emails that invite a signer: once one went out, a `ready` signer becomes `sent`. */
const INVITING_KINDS = new Set<string>(SIGNING_LINK_KINDS);

/**
 * Job `mail.send`: SMTP when SMTP_URL is set (then the body is purged from the outbox); otherwise
 * the message is kept in the outbox (readable with `esign mail list`), which counts as delivered. The row is locked while sending, so the
 * worker and an immediate send after commit never both send it. A failed attempt leaves it
 * `failed` and retried on message-retry.ts's back-off; past its retry window (or on its job's
 * last attempt) it is `undeliverable`, logged with the command that queues it again.
 */
export const sendMailJob: JobHandler = async (ctx, payload, job) => {
  const id = Number(payload.mailId);
  const lastAttempt = job?.max_attempts !== undefined && job.attempts >= job.max_attempts;
  const failure = await ctx.db.transaction().execute(async (tx): Promise<unknown> => {
    const claim = await claimOutboxMessage(tx, 'mail_outbox', id);
    if (!claim.row) {
      // Another process holds it right now: try again later rather than count it as done.
      return claim.busy ? new RetryLater(`mail ${id} is being sent by another process`) : null;
    }
    const mail = claim.row;
    if (mail.redacted_at) {
      // Its link or code stopped working before it could go out (mail-secrets.ts): never send it.
      await markOutboxNotSent(tx, 'mail_outbox', {
        id,
        status: 'undeliverable',
        reason: 'not sent: its signing link or code no longer works',
      });
      return null;
    }
    let status: 'sent' | 'kept' = 'kept';
    if (ctx.config.SMTP_URL) {
      try {
        await transportFor(ctx.config.SMTP_URL).sendMail({
          ...(await brandedSender(tx, ctx.config, mail)),
          to: mail.to_address,
          replyTo: mail.reply_to ?? undefined,
          subject: mail.subject,
          text: mail.text_body,
          html: mail.html_body,
        });
        status = 'sent';
      } catch (err) {
        const giveUp = lastAttempt || retryWindowOver(ctx.config, mail, ctx.now());
        // Recorded in this transaction (it holds the row), which then commits; the job retries.
        await recordOutboxAttemptFailed(tx, 'mail_outbox', {
          id,
          error: String(err).slice(0, 1000),
          status: giveUp ? 'undeliverable' : 'failed',
        });
        if (!giveUp) return new RetryIn(messageRetryDelayMs(job?.attempts ?? 1), err);
        ctx.logger.error(
          { err, mailId: id, attempts: mail.attempts + 1 },
          `mail ${id} is undeliverable: its retry window (MESSAGE_RETRY_HOURS) ran out; once the SMTP server takes mail again, run \`esign mail retry --id ${id}\` (or \`--all\`)`,
        );
        return null;
      }
    }
    const now = ctx.now();
    await markMailDelivered(tx, id, { status, now });
    // Delivered by SMTP: the outbox no longer needs the link or code (mail-secrets.ts).
    if (status === 'sent') await purgeSentMail(tx, id, now);
    if (mail.signer_id && INVITING_KINDS.has(mail.kind)) await markInvitedSignerSent(tx, mail.signer_id, now);
    return null;
  });
  if (failure) throw failure;
};

/** Sends queued mail right away (after the commit that queued it), bounded in time; the worker retries the rest. */
export async function sendMailNow(
  ctx: Parameters<JobHandler>[0],
  mailIds: number[],
  timeoutMs = 3000,
): Promise<void> {
  const work = Promise.all(
    mailIds.map((mailId) => sendMailJob(ctx, { mailId }, {} as never).catch(() => {})),
  );
  await Promise.race([work, new Promise((r) => setTimeout(r, timeoutMs).unref())]);
}

export async function listMail(db: Executor, opts: { to?: string; limit?: number }) {
  const limit = opts.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    throw new CoreError('invalid_parameter', 'limit must be an integer from 1 to 1000');
  }
  const rows = await listMailRows(db, { to: opts.to, limit });
  return {
    data: rows.map((m) => ({
      id: m.id,
      to: m.to_address,
      subject: m.subject,
      text: m.text_body,
      links: m.links,
      status: m.status,
      created_at: m.created_at.toISOString(),
      /** set once the body and links were removed (mail-secrets.ts) */
      redacted_at: m.redacted_at?.toISOString() ?? null,
    })),
  };
}

/** Escapes text for the HTML part of an email. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
