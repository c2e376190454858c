import type { Environment, Executor } from '@esign/db';
import { json } from '@esign/db';
import nodemailer, { type Transporter } from 'nodemailer';
import { CoreError } from '../errors.ts';
import { enqueueJob, type JobHandler, type JobKind, RetryLater } from './jobs.ts';
import { purgeSentMail, SIGNING_LINK_KINDS } from './mail-secrets.ts';

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
}

export const MAIL_SEND_JOB = 'mail.send' satisfies JobKind;

const URL_PATTERN = /https?:\/\/[^\s<>"')]+/g;

/** Puts an email in the outbox and its delivery job in the same transaction as its cause. */
export async function queueMail(tx: Executor, mail: MailMessage): Promise<number> {
  const links = [...new Set(mail.text.match(URL_PATTERN) ?? [])];
  const row = await tx
    .insertInto('mail_outbox')
    .values({
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
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await enqueueJob(tx, { kind: MAIL_SEND_JOB, payload: { mailId: row.id }, maxAttempts: 8 });
  return row.id;
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
 * worker and an immediate send after commit never both send it.
 */
export const sendMailJob: JobHandler = async (ctx, payload) => {
  const id = Number(payload.mailId);
  const failure = await ctx.db.transaction().execute(async (tx): Promise<unknown> => {
    const mail = await tx
      .selectFrom('mail_outbox')
      .selectAll()
      .where('id', '=', id)
      .where('status', 'in', ['queued', 'failed'])
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    if (!mail) {
      const current = await tx
        .selectFrom('mail_outbox')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirst();
      // Another process holds it right now: try again later rather than count it as done.
      if (current && (current.status === 'queued' || current.status === 'failed'))
        return new RetryLater(`mail ${id} is being sent by another process`);
      return null;
    }
    if (mail.redacted_at) {
      // Its link or code stopped working before it could go out (mail-secrets.ts): never send it.
      await tx
        .updateTable('mail_outbox')
        .set({ status: 'failed', last_error: 'not sent: its signing link or code no longer works' })
        .where('id', '=', id)
        .execute();
      return null;
    }
    let status: 'sent' | 'kept' = 'kept';
    if (ctx.config.SMTP_URL) {
      try {
        await transportFor(ctx.config.SMTP_URL).sendMail({
          from: ctx.config.MAIL_FROM,
          to: mail.to_address,
          replyTo: mail.reply_to ?? undefined,
          subject: mail.subject,
          text: mail.text_body,
          html: mail.html_body,
        });
        status = 'sent';
      } catch (err) {
        // Recorded in this transaction (it holds the row), which then commits; the job retries.
        await tx
          .updateTable('mail_outbox')
          .set((eb) => ({ attempts: eb('attempts', '+', 1), last_error: String(err).slice(0, 1000) }))
          .where('id', '=', id)
          .execute();
        return err;
      }
    }
    const now = ctx.now();
    await tx
      .updateTable('mail_outbox')
      .set((eb) => ({ status, sent_at: now, attempts: eb('attempts', '+', 1), last_error: null }))
      .where('id', '=', id)
      .execute();
    // Delivered by SMTP: the outbox no longer needs the link or code (mail-secrets.ts).
    if (status === 'sent') await purgeSentMail(tx, id, now);
    if (mail.signer_id && INVITING_KINDS.has(mail.kind)) {
      await tx
        .updateTable('signers')
        .set((eb) => ({ status: 'sent', sent_at: eb.fn.coalesce('sent_at', eb.val(now)), updated_at: now }))
        .where('id', '=', mail.signer_id)
        .where('status', '=', 'ready')
        .execute();
    }
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
  let q = db.selectFrom('mail_outbox').selectAll().orderBy('id', 'desc').limit(limit);
  if (opts.to) q = q.where((eb) => eb(eb.fn('lower', ['to_address']), '=', opts.to!.toLowerCase()));
  const rows = await q.execute();
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
