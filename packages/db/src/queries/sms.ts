import { type ExpressionBuilder, type Insertable, sql } from 'kysely';
import { type Executor, json, type Tx } from '../connection.ts';
import type { Database, SignerRow, SmsRow, SmsStatus } from '../schema.ts';

// The SMS outbox: queued text messages to signers, their delivery (packages/core/src/services/sms)
// and the purge of signing links and codes at rest, by the rules of the mail outbox.

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

/** The message still to send (`queued` or `failed`), locked; undefined when not waiting or held elsewhere. */
export async function lockSmsToSend(tx: Tx, id: number): Promise<SmsRow | undefined> {
  return tx
    .selectFrom('sms_outbox')
    .selectAll()
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'failed'])
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
}

export async function findSmsStatus(db: Executor, id: number): Promise<SmsStatus | undefined> {
  const row = await db.selectFrom('sms_outbox').select('status').where('id', '=', id).executeTakeFirst();
  return row?.status;
}

/** Counts a failed attempt: `failed` (retried) or `undeliverable` (given up), with the reason. */
export async function recordSmsAttemptFailed(
  tx: Tx,
  id: number,
  failure: { status: 'failed' | 'undeliverable'; error: string },
): Promise<void> {
  await tx
    .updateTable('sms_outbox')
    .set((eb) => ({ status: failure.status, attempts: eb('attempts', '+', 1), last_error: failure.error }))
    .where('id', '=', id)
    .execute();
}

/** Marks a message `undeliverable` without an attempt (its link or code stopped working first). */
export async function markSmsNotSent(tx: Tx, id: number, reason: string): Promise<void> {
  await tx
    .updateTable('sms_outbox')
    .set({ status: 'undeliverable', last_error: reason })
    .where('id', '=', id)
    .execute();
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

// ---- Purging signing links and codes at rest ---------------------------------------------------

export interface SmsPurge {
  marker: string;
  now: Date;
}

const purgedBody = (purge: SmsPurge) => ({
  text_body: purge.marker,
  links: json([]),
  redacted_at: purge.now,
});

/** Purges one message's body, unless already purged. */
export async function purgeSmsBody(db: Executor, id: number, purge: SmsPurge): Promise<void> {
  await db
    .updateTable('sms_outbox')
    .set(purgedBody(purge))
    .where('id', '=', id)
    .where('redacted_at', 'is', null)
    .execute();
}

/** Purges the bodies of these signers' messages of these kinds, unless already purged. */
export async function purgeSignerSmsBodies(
  db: Executor,
  messages: { signerIds: number[]; kinds: string[] },
  purge: SmsPurge,
): Promise<void> {
  await db
    .updateTable('sms_outbox')
    .set(purgedBody(purge))
    .where('signer_id', 'in', messages.signerIds)
    .where('kind', 'in', messages.kinds)
    .where('redacted_at', 'is', null)
    .execute();
}

/** Purges every message the provider took that still holds a body; returns how many. */
export async function purgeSentSmsBodies(db: Executor, purge: SmsPurge): Promise<number> {
  const sent = await db
    .updateTable('sms_outbox')
    .set(purgedBody(purge))
    .where('redacted_at', 'is', null)
    .where('status', '=', 'sent')
    .executeTakeFirst();
  return Number(sent.numUpdatedRows);
}

const liveCode =
  (now: Date, codeMaxAttempts: number) =>
  (eb: ExpressionBuilder<Database & { m: Database['sms_outbox'] }, 'm'>) =>
    eb.exists(
      eb
        .selectFrom('signers as s')
        .select(sql`1`.as('one'))
        .whereRef('s.id', '=', 'm.signer_id')
        .where('s.otp_hash', 'is not', null)
        .where('s.otp_expires_at', '>', now)
        .where('s.otp_attempts', '<', codeMaxAttempts),
    );

const liveLink = (now: Date) => (eb: ExpressionBuilder<Database & { m: Database['sms_outbox'] }, 'm'>) =>
  eb.exists(
    eb
      .selectFrom('signers as s')
      .innerJoin('signature_requests as r', 'r.id', 's.signature_request_id')
      .select(sql`1`.as('one'))
      .whereRef('s.id', '=', 'm.signer_id')
      .where('s.status', 'not in', ['signed', 'declined'])
      .where('r.status', 'in', ['sent', 'in_progress'])
      .where((w) => w.or([w('r.expires_at', 'is', null), w('r.expires_at', '>', now)])),
  );

/**
 * Purges the messages whose secret no longer works (the mail outbox's rule): a code message whose
 * signer has no live code, a signing-link message whose signer finished or whose request is no
 * longer open. Returns how many.
 */
export async function purgeSpentSecretSmsBodies(
  db: Executor,
  spent: { codeKind: string; linkKinds: readonly string[]; codeMaxAttempts: number },
  purge: SmsPurge,
): Promise<number> {
  const { now } = purge;
  const result = await db
    .updateTable('sms_outbox as m')
    .set(purgedBody(purge))
    .where('m.redacted_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb.and([eb('m.kind', '=', spent.codeKind), eb.not(liveCode(now, spent.codeMaxAttempts)(eb))]),
        eb.and([eb('m.kind', 'in', [...spent.linkKinds]), eb.not(liveLink(now)(eb))]),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** A request's signers in these statuses who can be reached: with an email or a phone. */
export async function findSignersWithContact(
  db: Executor,
  requestId: number,
  statuses: readonly SignerRow['status'][],
): Promise<SignerRow[]> {
  return db
    .selectFrom('signers')
    .selectAll()
    .where('signature_request_id', '=', requestId)
    .where('status', 'in', [...statuses])
    .where((eb) => eb.or([eb('email', 'is not', null), eb('phone', 'is not', null)]))
    .orderBy('position')
    .execute();
}
