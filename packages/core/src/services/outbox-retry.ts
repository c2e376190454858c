import type { Tx } from '@esign/db';
import {
  countOutboxBacklog,
  findOutboxStatus,
  type OutboxTable,
  requeueUndeliverable,
  setStatementTimeout,
} from '@esign/db/queries/outbox';
import type { Scope } from '../context.ts';
import { CoreError, notFound } from '../errors.ts';
import type { MessageBacklogRow } from '../metrics/metrics.ts';
import { enqueueJobs } from './jobs.ts';
import { MAIL_SEND_JOB } from './mail.ts';
import { MESSAGE_MAX_ATTEMPTS } from './message-retry.ts';
import type { ServiceContext } from './service-context.ts';
import { SMS_SEND_JOB } from './sms/outbox.ts';

// Messages given up, queued again by an operator (`esign mail retry`, `esign sms retry`), and the
// backlog the metrics and the dashboard show (message-retry.ts says when a message is given up).

export type MessageChannel = MessageBacklogRow['channel'];

const OUTBOX: Record<MessageChannel, { table: OutboxTable; job: string; idKey: string; what: string }> = {
  mail: { table: 'mail_outbox', job: MAIL_SEND_JOB, idKey: 'mailId', what: 'Mail' },
  sms: { table: 'sms_outbox', job: SMS_SEND_JOB, idKey: 'smsId', what: 'SMS' },
};

/**
 * `esign mail retry --id N` / `--all` (and `esign sms retry`): puts `undeliverable` messages back
 * in the queue with a new retry window and a job each, in one transaction; the worker sends them.
 * With an id, a message that is not undeliverable, or whose link or code no longer works, is an
 * error that says so; `--all` skips those. Returns the messages queued, oldest first.
 */
export async function retryUndeliverableMessages(
  ctx: Pick<ServiceContext, 'db'>,
  channel: MessageChannel,
  o: { id: number | null; now: Date },
) {
  const { table, job, idKey, what } = OUTBOX[channel];
  const rows = await ctx.db.transaction().execute(async (tx) => {
    const queued = await requeueUndeliverable(tx, table, o);
    await enqueueJobs(
      tx,
      queued.map((m) => ({ kind: job, payload: { [idKey]: m.id }, maxAttempts: MESSAGE_MAX_ATTEMPTS })),
    );
    return queued;
  });
  if (o.id !== null && rows.length === 0) {
    const current = await findOutboxStatus(ctx.db, table, o.id);
    if (!current) throw notFound(what, o.id);
    if (current.status !== 'undeliverable')
      throw new CoreError('invalid_request', `${what} ${o.id} is ${current.status}, not undeliverable`);
    throw new CoreError(
      'invalid_request',
      `${what} ${o.id} cannot be sent again: its signing link or code no longer works`,
    );
  }
  return {
    data: rows.map((m) => ({
      id: m.id,
      to: m.to,
      status: 'queued' as const,
      attempts: m.attempts,
      last_error: m.last_error,
    })),
  };
}

/**
 * The backlog of both outboxes, for the whole service (metrics) or one account side (dashboard),
 * in the caller's transaction, whose statements the server stops after `timeoutMs` from here on.
 */
export async function readMessageBacklog(
  tx: Tx,
  scope?: { accountId: number; environment: string },
  timeoutMs = 2_000,
): Promise<MessageBacklogRow[]> {
  await setStatementTimeout(tx, timeoutMs);
  const rows: MessageBacklogRow[] = [];
  for (const channel of ['mail', 'sms'] as const) {
    const row = await countOutboxBacklog(tx, OUTBOX[channel].table, scope);
    rows.push({
      channel,
      waiting: row.waiting,
      undeliverable: row.undeliverable,
      oldestWaitingAt: row.oldest_waiting,
    });
  }
  return rows;
}

/** The dashboard's line (Account page, admins): this account side's backlog per channel. */
export async function accountMessageBacklog(ctx: ServiceContext, scope: Scope) {
  const rows = await ctx.db.transaction().execute((tx) => readMessageBacklog(tx, scope));
  return rows.map((r) => ({
    channel: r.channel,
    waiting: r.waiting,
    undeliverable: r.undeliverable,
    oldest_waiting_at: r.oldestWaitingAt?.toISOString() ?? null,
  }));
}
