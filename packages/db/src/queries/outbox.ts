import { type ExpressionBuilder, type Selectable, sql } from 'kysely';
import { type Executor, json, type Tx } from '../connection.ts';
import type { Database, MailRow, SmsRow } from '../schema.ts';

// The two outboxes of messages to people, mail_outbox and sms_outbox, share their sending (the
// claim, a failed attempt, a message not sent) and the purge of signing links and codes at rest;
// these queries serve both, named by table. mail.ts and sms.ts keep what only one of them has
// (subjects and HTML, provider ids, the SMS limits, the listing filters).

export type OutboxTable = 'mail_outbox' | 'sms_outbox';
export type OutboxRow<T extends OutboxTable> = Selectable<Database[T]>;
type OutboxStatus<T extends OutboxTable> = {
  mail_outbox: MailRow['status'];
  sms_outbox: SmsRow['status'];
}[T];

/**
 * Claims a message to send: its row, locked, while it is still to send (`queued` or `failed`).
 * Without a row, `busy` says whether it is still waiting but another process holds it (`SKIP
 * LOCKED`: try again later) rather than settled (sent, kept, given up, or gone).
 */
export async function claimOutboxMessage<T extends OutboxTable>(
  tx: Tx,
  table: T,
  id: number,
): Promise<{ row: OutboxRow<T> } | { row: null; busy: boolean }> {
  const outbox: OutboxTable = table;
  const row = await tx
    .selectFrom(outbox)
    .selectAll()
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'failed'])
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
  // Kysely types a select from either table as the columns of both; it is the row of `table`.
  if (row) return { row: row as OutboxRow<T> };
  const current = await tx.selectFrom(outbox).select('status').where('id', '=', id).executeTakeFirst();
  return { row: null, busy: current?.status === 'queued' || current?.status === 'failed' };
}

/** Marks a message with `status` (`failed` or `undeliverable`) without sending it, with the reason. */
export async function markOutboxNotSent<T extends OutboxTable>(
  tx: Tx,
  table: T,
  notSent: { id: number; status: OutboxStatus<T>; reason: string },
): Promise<void> {
  const outbox: OutboxTable = table;
  await tx
    .updateTable(outbox)
    .set({ status: notSent.status, last_error: notSent.reason })
    .where('id', '=', notSent.id)
    .execute();
}

/**
 * Counts a failed delivery attempt with its error; with `status` the message takes it (`failed`,
 * retried, or `undeliverable`, given up), without it the status stays.
 */
export async function recordOutboxAttemptFailed<T extends OutboxTable>(
  tx: Tx,
  table: T,
  failure: { id: number; error: string; status?: OutboxStatus<T> },
): Promise<void> {
  const outbox: OutboxTable = table;
  const { status } = failure;
  await tx
    .updateTable(outbox)
    .set((eb) => ({
      ...(status ? { status } : {}),
      attempts: eb('attempts', '+', 1),
      last_error: failure.error,
    }))
    .where('id', '=', failure.id)
    .execute();
}

// ---- Purging signing links and codes at rest ---------------------------------------------------

/**
 * What a purge writes: the marker replacing the body (and the HTML of an email), and at what time.
 * `codeSubject` replaces the subject of the code emails (it carries the code); mail only.
 */
export interface OutboxPurge {
  marker: string;
  now: Date;
  codeSubject?: { kind: string; subject: string };
}

/** The purged columns of one table: the SMS outbox has no subject and no HTML. */
function purgedBody(table: OutboxTable, purge: OutboxPurge) {
  const common = { text_body: purge.marker, links: json([]), redacted_at: purge.now };
  if (table === 'sms_outbox') return () => common;
  const code = purge.codeSubject;
  return (eb: ExpressionBuilder<Database, 'mail_outbox'>) => ({
    ...common,
    ...(code
      ? { subject: eb.case().when('kind', '=', code.kind).then(code.subject).else(eb.ref('subject')).end() }
      : {}),
    html_body: `<p>${purge.marker}</p>`,
  });
}

/** Which rows a purge reads: one message, these signers' messages of these kinds, or all sent ones. */
export type OutboxPurgeRows = { id: number } | { signerIds: number[]; kinds: string[] } | { sent: true };

/** Purges the bodies of these messages, unless already purged; returns how many. */
export async function purgeOutboxBodies(
  db: Executor,
  table: OutboxTable,
  o: { rows: OutboxPurgeRows; purge: OutboxPurge },
): Promise<number> {
  const { rows } = o;
  let q = db
    .updateTable(table)
    // The purged columns are those of `table` (purgedBody), which Kysely cannot tie to a union.
    .set(purgedBody(table, o.purge) as never)
    .where('redacted_at', 'is', null);
  if ('id' in rows) q = q.where('id', '=', rows.id);
  else if ('signerIds' in rows)
    q = q.where('signer_id', 'in', rows.signerIds).where('kind', 'in', rows.kinds);
  else q = q.where('status', '=', 'sent');
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Either outbox under the alias `m`, with the columns both have. */
type OutboxColumns = Database[OutboxTable];
type OutboxAlias = ExpressionBuilder<Database & { outbox: OutboxColumns } & { m: OutboxColumns }, 'm'>;

/** The message's signer holds a code that still works (set, not expired, tries left). */
const liveCode = (now: Date, codeMaxAttempts: number) => (eb: OutboxAlias) =>
  eb.exists(
    eb
      .selectFrom('signers as s')
      .select(sql`1`.as('one'))
      .whereRef('s.id', '=', 'm.signer_id')
      .where('s.otp_hash', 'is not', null)
      .where('s.otp_expires_at', '>', now)
      .where('s.otp_attempts', '<', codeMaxAttempts),
  );

/** The message's signer has not finished and the request is still open (sent / in progress, not expired). */
const liveLink = (now: Date) => (eb: OutboxAlias) =>
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
 * Purges the messages whose secret no longer works, at `purge.now`: a code message whose signer
 * has no live code (none, expired, or `codeMaxAttempts` wrong tries), and a signing-link message
 * whose signer signed or declined or whose request is no longer open (not sent / in progress, or
 * expired). Returns how many. Reads only rows that still hold a body (partial index
 * mail_outbox_unredacted_idx on the mail outbox).
 */
export async function purgeSpentSecretBodies(
  db: Executor,
  table: OutboxTable,
  o: {
    spent: { codeKind: string; linkKinds: readonly string[]; codeMaxAttempts: number };
    purge: OutboxPurge;
  },
): Promise<number> {
  const { spent } = o;
  const { now } = o.purge;
  const result = await db
    .withTables<{ outbox: OutboxColumns }>()
    // The name Kysely types as `outbox` is the table's own: `mail_outbox as m` or `sms_outbox as m`.
    .updateTable(`${table} as m` as 'outbox as m')
    .set(purgedBody(table, o.purge) as never)
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

// ---- Given up, queued again, and the backlog ----------------------------------------------------

/** One message an operator may queue again, or why not (`esign mail retry --id N`). */
export async function findOutboxStatus(
  db: Executor,
  table: OutboxTable,
  id: number,
): Promise<{ status: string; redacted_at: Date | null } | undefined> {
  const outbox: OutboxTable = table;
  return db.selectFrom(outbox).select(['status', 'redacted_at']).where('id', '=', id).executeTakeFirst();
}

/**
 * Puts `undeliverable` messages back to `queued` with `retried_at = now` (their retry window starts
 * again): the one of `id`, or every one when `id` is null; never a message whose body was purged
 * (its link or code no longer works). Returns them, oldest first.
 */
export async function requeueUndeliverable(
  tx: Tx,
  table: OutboxTable,
  o: { id: number | null; now: Date },
): Promise<{ id: number; to: string; attempts: number; last_error: string | null }[]> {
  const outbox: OutboxTable = table;
  let q = tx
    .updateTable(outbox)
    .set({ status: 'queued', retried_at: o.now })
    .where('status', '=', 'undeliverable')
    .where('redacted_at', 'is', null);
  if (o.id !== null) q = q.where('id', '=', o.id);
  const to = table === 'mail_outbox' ? sql<string>`to_address` : sql<string>`to_number`;
  const rows = await q.returning(['id', 'attempts', 'last_error', to.as('to')]).execute();
  return rows.sort((a, b) => a.id - b.id);
}

/** Stops this transaction's statements after `timeoutMs` (a reading that must not hang). */
export async function setStatementTimeout(tx: Tx, timeoutMs: number): Promise<void> {
  await sql`set local statement_timeout = ${sql.lit(Math.max(1, Math.round(timeoutMs)))}`.execute(tx);
}

/** One outbox's messages not delivered, per state, and when the oldest waiting one was written. */
export interface OutboxBacklogRow {
  waiting: number;
  undeliverable: number;
  oldest_waiting: Date | null;
}

/**
 * The backlog of one outbox (over its partial index of undelivered messages): waiting (`queued` or
 * `failed`, being retried) and `undeliverable`; for one account side when `scope` is given.
 */
export async function countOutboxBacklog(
  db: Executor,
  table: OutboxTable,
  scope?: { accountId: number; environment: string },
): Promise<OutboxBacklogRow> {
  const where = scope
    ? sql`and account_id = ${scope.accountId} and environment = ${scope.environment}`
    : sql``;
  const { rows } = await sql<OutboxBacklogRow>`
    select count(*) filter (where status <> 'undeliverable')::int as waiting,
      count(*) filter (where status = 'undeliverable')::int as undeliverable,
      min(created_at) filter (where status <> 'undeliverable') as oldest_waiting
    from ${sql.table(table)}
    where status in ('queued', 'failed', 'undeliverable') ${where}`.execute(db);
  return rows[0] ?? { waiting: 0, undeliverable: 0, oldest_waiting: null };
}
