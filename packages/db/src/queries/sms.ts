import { type Insertable, sql } from 'kysely';
import type { Executor, Tx } from '../connection.ts';
import type { Database, SmsRow } from '../schema.ts';
import type { Scope } from '../scope.ts';

// The SMS outbox: queued text messages to signers and their delivery (packages/core/src/services/sms).
// The claim, the failed attempts and the purge of signing links and codes at rest are the mail
// outbox's (outbox.ts).

export type NewSmsRow = Insertable<Database['sms_outbox']>;

export async function insertSms(tx: Executor, values: NewSmsRow): Promise<number> {
  const row = await tx.insertInto('sms_outbox').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/**
 * Serialises the SMS an account queues (until the transaction ends), so two sends at once cannot
 * both pass the daily limit on the same count.
 */
export async function lockAccountSms(tx: Tx, accountId: number): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('sms_outbox'), ${accountId})`.execute(tx);
}

/** SMS of an account counted against its daily limit: every one written since `since`, except those capped. */
export async function countAccountSmsSince(db: Executor, accountId: number, since: Date): Promise<number> {
  const row = await db
    .selectFrom('sms_outbox')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('account_id', '=', accountId)
    .where('created_at', '>=', since)
    .where('status', '!=', 'capped')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Code messages sent to one number since `since`: how many, and the first and last times. */
export async function countCodeSmsToSince(
  db: Executor,
  to: { number: string; kind: string },
  since: Date,
): Promise<{ n: number; first: Date | null; last: Date | null }> {
  const row = await db
    .selectFrom('sms_outbox')
    .select((eb) => [
      eb.fn.countAll<string>().as('n'),
      eb.fn.min('created_at').as('first'),
      eb.fn.max('created_at').as('last'),
    ])
    .where('to_number', '=', to.number)
    .where('kind', '=', to.kind)
    .where('created_at', '>=', since)
    .where('status', '!=', 'capped')
    .executeTakeFirstOrThrow();
  return { n: Number(row.n), first: row.first ?? null, last: row.last ?? null };
}

/** The delivered attempt: `sent` (the provider took it, with its message id) or `kept` (no provider). */
export async function markSmsDelivered(
  tx: Tx,
  id: number,
  delivery: { status: 'sent' | 'kept'; providerId: string | null; now: Date },
): Promise<void> {
  await tx
    .updateTable('sms_outbox')
    .set((eb) => ({
      status: delivery.status,
      provider_id: delivery.providerId,
      sent_at: delivery.now,
      attempts: eb('attempts', '+', 1),
      last_error: null,
    }))
    .where('id', '=', id)
    .execute();
}

/** The latest messages, newest first; `to` is an E.164 number. */
export async function listSmsRows(db: Executor, opts: { to?: string; limit: number }): Promise<SmsRow[]> {
  let q = db.selectFrom('sms_outbox').selectAll().orderBy('id', 'desc').limit(opts.limit);
  if (opts.to) q = q.where('to_number', '=', opts.to);
  return q.execute();
}

/**
 * Of these requests of one account side, those where a signer's latest SMS did not reach them:
 * undeliverable (the provider gave up) or capped (the daily limit held it). A later SMS that went
 * out (a corrected number resent) clears it. One statement for a page of the requests list.
 */
export async function listRequestsWithUndeliveredSms(
  db: Executor,
  scope: Scope,
  requestIds: number[],
): Promise<number[]> {
  if (!requestIds.length) return [];
  const { rows } = await sql<{ id: number }>`
    select distinct latest.signature_request_id as id from (
      select distinct on (signer_id) signer_id, signature_request_id, status from sms_outbox
      where account_id = ${scope.accountId} and environment = ${scope.environment}
        and signature_request_id = any(${requestIds}::int[]) and signer_id is not null
      order by signer_id, id desc
    ) latest
    where latest.status in ('undeliverable', 'capped')
    order by id`.execute(db);
  return rows.map((r) => r.id);
}
