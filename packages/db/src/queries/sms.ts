import { type Insertable, sql } from 'kysely';
import type { Executor, Tx } from '../connection.ts';
import type { Database, Environment, SmsRow } from '../schema.ts';
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

/** SMS of an account counted against its daily limit: every one written since `since`, except those never sent (capped, opted out). */
export async function countAccountSmsSince(db: Executor, accountId: number, since: Date): Promise<number> {
  const row = await db
    .selectFrom('sms_outbox')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('account_id', '=', accountId)
    .where('created_at', '>=', since)
    .where('status', 'not in', ['capped', 'opted_out'])
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
    .where('status', 'not in', ['capped', 'opted_out'])
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

/** One SMS's status (`capped` when the daily limit kept it from being sent). */
export async function findSmsStatus(db: Executor, id: number): Promise<SmsRow['status'] | undefined> {
  const row = await db.selectFrom('sms_outbox').select('status').where('id', '=', id).executeTakeFirst();
  return row?.status;
}

/**
 * Whom to tell that a request's SMS was capped (issue 42.3): its title, its sender's name and
 * email, its reply-to; and whether an SMS of the request was capped already since `since`.
 */
export async function findSmsCappedContext(db: Executor, requestId: number, since: Date) {
  return db
    .selectFrom('signature_requests as r')
    .leftJoin('users as u', 'u.id', 'r.created_by_user_id')
    .select((eb) => [
      'r.template_name',
      'r.reply_to',
      'u.name as sender_name',
      'u.email as sender_email',
      eb
        .exists(
          eb
            .selectFrom('sms_outbox as o')
            .select('o.id')
            .whereRef('o.signature_request_id', '=', 'r.id')
            .where('o.status', '=', 'capped')
            .where('o.created_at', '>=', since),
        )
        .as('capped_before'),
    ])
    .where('r.id', '=', requestId)
    .executeTakeFirst();
}

/** Records that `number` replied STOP (the first time is kept). */
export async function insertSmsOptOut(
  db: Executor,
  number: string,
  keyword: string,
  now: Date,
): Promise<void> {
  await db
    .insertInto('sms_opt_outs')
    .values({ number, keyword, opted_out_at: now })
    .onConflict((oc) => oc.column('number').doNothing())
    .execute();
}

/** Removes `number`'s opt-out (it replied START); whether there was one. */
export async function deleteSmsOptOut(db: Executor, number: string): Promise<boolean> {
  const r = await db.deleteFrom('sms_opt_outs').where('number', '=', number).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** When `number` opted out of SMS, if it did. */
export async function findSmsOptOut(db: Executor, number: string): Promise<Date | undefined> {
  const row = await db
    .selectFrom('sms_opt_outs')
    .select('opted_out_at')
    .where('number', '=', number)
    .executeTakeFirst();
  return row?.opted_out_at;
}

/** The signers with this phone in requests still open (`sent` or `in_progress`), with their request. */
export function listOpenSignersByPhone(
  db: Executor,
  phone: string,
): Promise<
  {
    signer_id: number;
    signature_request_id: number;
    account_id: number;
    environment: Environment;
    created_by_user_id: number | null;
    name: string | null;
  }[]
> {
  return db
    .selectFrom('signers')
    .innerJoin('signature_requests', 'signature_requests.id', 'signers.signature_request_id')
    .select([
      'signers.id as signer_id',
      'signers.signature_request_id',
      'signature_requests.account_id',
      'signature_requests.environment',
      'signature_requests.created_by_user_id',
      'signers.name',
    ])
    .where('signers.phone', '=', phone)
    .where('signature_requests.completed_at', 'is', null)
    .where('signature_requests.canceled_at', 'is', null)
    .where('signature_requests.declined_at', 'is', null)
    .where('signature_requests.expired_at', 'is', null)
    .orderBy('signers.id')
    .limit(100)
    .execute();
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

/**
 * The provider's final word on a message it had accepted (its status callback: `undelivered` or
 * `failed`): the `sent` message with this provider id becomes `undeliverable` with `error`, and is
 * returned; undefined when there is none (unknown id, or already settled otherwise).
 */
export async function markSentSmsUndeliverable(db: Executor, providerId: string, error: string) {
  return db
    .updateTable('sms_outbox')
    .set({ status: 'undeliverable', last_error: error })
    .where('provider_id', '=', providerId)
    .where('status', '=', 'sent')
    .returningAll()
    .executeTakeFirst();
}
