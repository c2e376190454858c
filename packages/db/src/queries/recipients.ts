import { type Insertable, type RawBuilder, sql } from 'kysely';
import type { Executor } from '../connection.ts';
import { json } from '../connection.ts';
import type { Database, SignatureRequestRow, SignerRow } from '../schema.ts';
import type { RecipientKind, RequestRecipientRow } from '../schema-recipients.ts';

// The people a request is copied to (request_recipients: `cc` with a read-only link, `notify` for
// completion notices) and the addresses an account adds to every request (account_recipient_defaults).

export type RequestRecipientInsert = Insertable<Database['request_recipients']>;

/** A request's recipient as the Signature request object shows it. */
export interface RecipientRef {
  kind: RecipientKind;
  email: string;
}

/**
 * A request's recipients as a column of the statement that reads the request (requestViews), so
 * showing `cc` and `notify` costs no statement of its own.
 */
export function recipientsColumn(requestId: RawBuilder<unknown>): RawBuilder<RecipientRef[]> {
  return sql<
    RecipientRef[]
  >`(select coalesce(jsonb_agg(jsonb_build_object('kind', r.kind, 'email', r.email) order by r.id), '[]'::jsonb)
  from request_recipients r where r.signature_request_id = ${requestId})`;
}

/** An account's default recipients as a column of the send's template statement (sendSourceQuery). */
export function recipientDefaultsColumn(accountId: number): RawBuilder<RecipientDefaults | null> {
  return sql<RecipientDefaults | null>`(select jsonb_build_object('cc', d.cc, 'notify', d.notify)
  from account_recipient_defaults d where d.account_id = ${accountId})`;
}

/** Writes the recipients of one or more requests (one statement). */
export async function insertRequestRecipients(db: Executor, rows: RequestRecipientInsert[]): Promise<void> {
  if (rows.length === 0) return;
  await db.insertInto('request_recipients').values(rows).execute();
}

/** The recipients of these requests, in the order written. */
export async function listRequestRecipients(
  db: Executor,
  requestIds: number[],
  kind?: RecipientKind,
): Promise<RequestRecipientRow[]> {
  if (requestIds.length === 0) return [];
  let q = db.selectFrom('request_recipients').selectAll().where('signature_request_id', 'in', requestIds);
  if (kind) q = q.where('kind', '=', kind);
  return q.orderBy('id').execute();
}

/** A CC recipient by the hash of its read-only link's token, with its request and signers. */
export async function findCcByTokenHash(
  db: Executor,
  tokenHash: string,
): Promise<
  { recipient: RequestRecipientRow; request: SignatureRequestRow; signers: SignerRow[] } | undefined
> {
  const recipient = await db
    .selectFrom('request_recipients')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .where('kind', '=', 'cc')
    .executeTakeFirst();
  if (!recipient) return undefined;
  const request = await db
    .selectFrom('signature_requests')
    .selectAll()
    .where('id', '=', recipient.signature_request_id)
    .where('account_id', '=', recipient.account_id)
    .where('environment', '=', recipient.environment)
    .executeTakeFirstOrThrow();
  const signers = await db
    .selectFrom('signers')
    .selectAll()
    .where('signature_request_id', '=', request.id)
    .orderBy('position')
    .execute();
  return { recipient, request, signers };
}

export interface RecipientDefaults {
  cc: string[];
  notify: string[];
}

/** The addresses an account adds to every request it sends (none when never set). */
export async function findRecipientDefaults(db: Executor, accountId: number): Promise<RecipientDefaults> {
  const row = await db
    .selectFrom('account_recipient_defaults')
    .select(['cc', 'notify'])
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row ?? { cc: [], notify: [] };
}

/** Sets an account's default recipients. */
export async function saveRecipientDefaults(
  db: Executor,
  accountId: number,
  o: RecipientDefaults & { now: Date },
): Promise<RecipientDefaults> {
  const values = { cc: json(o.cc), notify: json(o.notify), updated_at: o.now };
  return db
    .insertInto('account_recipient_defaults')
    .values({ account_id: accountId, ...values })
    .onConflict((c) => c.column('account_id').doUpdateSet(values))
    .returning(['cc', 'notify'])
    .executeTakeFirstOrThrow();
}
