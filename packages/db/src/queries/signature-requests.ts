import {
  type Expression,
  type ExpressionBuilder,
  type InsertObject,
  type RawBuilder,
  type SqlBool,
  sql,
} from 'kysely';
import { compiledOnce, type Executor, preparedInsert, type Tx } from '../connection.ts';
import type {
  Database,
  FieldAreaRow,
  PageSize,
  SignatureRequestRow,
  SignatureRequestsTable,
  TemplateRow,
} from '../schema.ts';
import type { Scope } from '../scope.ts';
import { type CreditsRow, creditsColumn } from './credits.ts';
import {
  type RecipientDefaults,
  type RecipientRef,
  recipientDefaultsColumn,
  recipientsColumn,
} from './recipients.ts';

// Signature requests: the read a send makes of its template (one statement), the insert, and the
// reads of the Signature request object (its creator and its template's state in the same statement).

/** The `created_by` of a resource: the dashboard user who made it, if any. */
export interface CreatedByRow {
  id: number;
  email: string;
  name: string | null;
}

/** `created_by` as a column: the user behind `userId` (a column reference or a value), null for none. */
export function createdByColumn(userId: RawBuilder<unknown>): RawBuilder<CreatedByRow | null> {
  return sql<CreatedByRow | null>`(select json_build_object('id', u.id, 'email', u.email, 'name', u.name) from users u where u.id = ${userId})`;
}

/** The part of a template field a request's snapshot keeps. */
export interface SendFieldRow {
  id: string;
  name: string | null;
  type: string;
  role: string;
  required: boolean;
  options: string[] | null;
  areas: FieldAreaRow[];
  /** form logic (issue 46); null when none */
  logic: Record<string, unknown> | null;
}

/** The part of a template document a request's snapshot keeps. */
export interface SendDocumentRow {
  id: number;
  name: string;
  storage_key: string;
  sha256: string;
  uploaded_sha256: string | null;
  pages: PageSize[];
}

/** Everything a send needs of its template, read in one statement. */
export interface SendSourceRow {
  template: TemplateRow;
  fields: SendFieldRow[];
  documents: SendDocumentRow[];
  /** The sending account's credits (and whether this template consumed its credit); null unless asked. */
  credits: CreditsRow | null;
  /** The Signature request's `created_by` (the sending user); null without a user. */
  created_by: CreatedByRow | null;
  /** The account's default `cc` and `notify` addresses (issue 34); null when never set. */
  recipient_defaults: RecipientDefaults | null;
  /** The account's default language for signers (issue 32); null when never set. */
  account_locale: string | null;
  /** The account's default automatic reminders (issue 34.2); null when none. */
  account_reminders: { every_hours: number; max: number } | null;
  /**
   * The template row was changed by a transaction that committed after this statement's snapshot
   * was taken (the lock waited for it): the fields and documents read are the old ones. Read again.
   */
  changed: boolean;
}

export interface SendSourceOptions {
  templateId: number;
  /** The user whose `created_by` the request will show. */
  userId: number | null;
  /** Read the credits of the scope's account too (live sends). */
  withCredits: boolean;
}

const sendFields = sql<SendFieldRow[]>`(select coalesce(jsonb_agg(jsonb_build_object(
    'id', f.id, 'name', f.name, 'type', f.type, 'role', f.role, 'required', f.required,
    'options', f.options, 'areas', f.areas, 'logic', f.logic) order by f.position), '[]'::jsonb)
  from template_fields f where f.template_id = templates.id)`;

const sendDocuments = sql<SendDocumentRow[]>`(select coalesce(jsonb_agg(jsonb_build_object(
    'id', d.id, 'name', d.name, 'storage_key', d.storage_key, 'sha256', d.sha256,
    'uploaded_sha256', d.uploaded_sha256, 'pages', d.pages) order by d.position), '[]'::jsonb)
  from template_documents d where d.template_id = templates.id)`;

/** What decides the send source statement's structure (one prepared statement per shape). */
interface SendSourceShape {
  withCredits: boolean;
  /** Locked FOR SHARE (inside a send's transaction) or a plain read. */
  share: boolean;
}

interface SendSourceValues extends Record<string, unknown> {
  templateId: number;
  accountId: number;
  environment: Scope['environment'];
  userId: number | null;
}

/**
 * The send source statement, built and compiled once per shape and run prepared: every send runs
 * it, and building it and having PostgreSQL plan its six subqueries cost more than running it
 * (bench/README.md, issue 31).
 */
const sendSource = compiledOnce(
  'esign_send_source',
  (s: SendSourceShape) => `${+s.withCredits}${+s.share}`,
  (db, v: SendSourceValues, s: SendSourceShape) => {
    const query = db
      .selectFrom('templates')
      .selectAll('templates')
      .select([
        sendFields.as('fields'),
        sendDocuments.as('documents'),
        (s.withCredits ? creditsColumn(v.accountId, sql.ref('templates.id')) : sql<null>`null`).as('credits'),
        createdByColumn(sql`${v.userId}::integer`).as('created_by'),
        recipientDefaultsColumn(v.accountId).as('recipient_defaults'),
        sql<string | null>`(select a.default_locale from accounts a where a.id = ${v.accountId})`.as(
          'account_locale',
        ),
        sql<
          SendSourceRow['account_reminders']
        >`(select a.default_reminders from accounts a where a.id = ${v.accountId})`.as('account_reminders'),
        // The locked row's version against the one this statement's snapshot sees (see `changed`).
        sql<boolean>`templates.xmin::text <> (select t.xmin::text from templates t where t.id = templates.id)`.as(
          'changed',
        ),
      ])
      .where('templates.id', '=', v.templateId)
      .where('templates.account_id', '=', v.accountId)
      .where('templates.environment', '=', v.environment);
    return s.share ? query.forShare() : query;
  },
);

async function readSendSource(db: Executor, scope: Scope, o: SendSourceOptions & { share: boolean }) {
  const [row] = await sendSource(
    db,
    { withCredits: o.withCredits, share: o.share },
    {
      templateId: o.templateId,
      accountId: scope.accountId,
      environment: scope.environment,
      userId: o.userId,
    },
  );
  if (!row) return undefined;
  const {
    fields,
    documents,
    credits,
    created_by,
    recipient_defaults,
    account_locale,
    account_reminders,
    changed,
    ...template
  } = row;
  return {
    template,
    fields,
    documents,
    credits,
    created_by,
    recipient_defaults,
    account_locale,
    account_reminders,
    changed: changed === true,
  } as SendSourceRow;
}

/** The template with its fields, documents (and credits), not locked: the checks before a transaction. */
export async function findSendSource(
  db: Executor,
  scope: Scope,
  o: SendSourceOptions,
): Promise<SendSourceRow | undefined> {
  return readSendSource(db, scope, { ...o, share: false });
}

/**
 * The template locked `FOR SHARE` until the transaction ends, with its fields, documents (and
 * credits): sends share the lock, so any number run at once; an edit's `FOR UPDATE` waits for them
 * and they wait for it. When the lock waited for an edit that committed, `changed` is true.
 */
export async function shareSendSource(
  tx: Tx,
  scope: Scope,
  o: SendSourceOptions,
): Promise<SendSourceRow | undefined> {
  return readSendSource(tx, scope, { ...o, share: true });
}

/** Every column of a request but its snapshot (see `requestViews`). */
export const COLUMNS_BUT_SNAPSHOT = [
  'id',
  'account_id',
  'environment',
  'template_id',
  'template_name',
  'status',
  'signing_order',
  'source',
  'created_by_user_id',
  'api_key_id',
  'oauth_client_id',
  'send_email',
  'message',
  'reply_to',
  'redirect_url',
  'require_email_otp',
  'locale',
  'expires_at',
  'completed_at',
  'canceled_at',
  'declined_at',
  'expired_at',
  'last_reminded_at',
  'documents',
  'audit_trail_storage_key',
  'combined_storage_key',
  'sealing_status',
  'sealing_error',
  'created_at',
  'updated_at',
  'reminders',
  'allow_delegation',
  'brand_id',
] as const satisfies readonly (keyof SignatureRequestsTable)[];

/** Compiles only while COLUMNS_BUT_SNAPSHOT names every column but the snapshot. */
export type ViewColumnsComplete =
  Exclude<keyof SignatureRequestsTable, (typeof COLUMNS_BUT_SNAPSHOT)[number] | 'snapshot'> extends never
    ? true
    : never;

/** A request to write; a column may be an expression (issue 34.2: `reminders` reads the account's default). */
export type SignatureRequestInsert = InsertObject<Database, 'signature_requests'>;

const insertRequests = preparedInsert('esign_insert_requests', (db, rows: SignatureRequestInsert[]) =>
  db.insertInto('signature_requests').values(rows).returning(COLUMNS_BUT_SNAPSHOT),
);

/**
 * Writes the requests; returns every column but the snapshot (the caller has it), in input order.
 * A send's one request runs prepared (preparedInsert).
 */
export async function insertSignatureRequests(
  tx: Tx,
  rows: SignatureRequestInsert[],
): Promise<Omit<SignatureRequestRow, 'snapshot'>[]> {
  return insertRequests(tx, rows);
}

/** What the Signature request object needs besides its row. */
export interface RequestRelationsRow {
  created_by: CreatedByRow | null;
  /** The request's template was archived (its signing links stop working). */
  template_archived: boolean;
  /** Its `cc` and `notify` addresses (issue 34), in the order written. */
  recipients: RecipientRef[];
}

export type RequestViewRow = SignatureRequestRow & RequestRelationsRow;

function templateArchivedColumn(templateId: RawBuilder<unknown>): RawBuilder<boolean> {
  return sql<boolean>`exists (select 1 from templates t where t.id = ${templateId} and t.archived_at is not null)`;
}

/**
 * The snapshot as the Signature request object uses it: the template's name, roles and fields,
 * and its documents without their page sizes (`page_sizes`, or `pages` in older snapshots, where a
 * 5,000-page document's sizes were 150 kB of JSON that every read carried from PostgreSQL).
 */
const viewSnapshot = sql<unknown>`case when jsonb_typeof(signature_requests.snapshot->'documents') = 'array'
  then jsonb_set(signature_requests.snapshot, '{documents}', (
    select coalesce(jsonb_agg(d - '{pages,page_sizes}'::text[] order by n), '[]'::jsonb)
    from jsonb_array_elements(signature_requests.snapshot->'documents') with ordinality as e(d, n)))
  else signature_requests.snapshot end`;

/**
 * Signature requests with what their DTO shows, read in the same statement (one query per page,
 * whatever its size). Filters may name the request's columns unqualified. The snapshot's
 * documents come without their page sizes (`viewSnapshot`).
 */
export function requestViews(db: Executor) {
  return db
    .selectFrom('signature_requests')
    .select(COLUMNS_BUT_SNAPSHOT.map((c) => `signature_requests.${c}` as const))
    .select([
      viewSnapshot.as('snapshot'),
      createdByColumn(sql.ref('signature_requests.created_by_user_id')).as('created_by'),
      templateArchivedColumn(sql.ref('signature_requests.template_id')).as('template_archived'),
      recipientsColumn(sql.ref('signature_requests.id')).as('recipients'),
    ]);
}

/** The request with its creator and template state, or undefined outside this account side. */
export async function findRequestView(
  db: Executor,
  scope: Scope,
  id: number,
): Promise<RequestViewRow | undefined> {
  return requestViews(db)
    .where('id', '=', id)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .executeTakeFirst();
}

/** The request with its creator and template state by id alone (a signer's request, already scoped). */
export async function findRequestViewById(db: Executor, id: number): Promise<RequestViewRow | undefined> {
  return requestViews(db).where('id', '=', id).executeTakeFirst();
}

/** The relations of a row already at hand (just changed): one statement. */
export async function findRequestRelations(
  db: Executor,
  row: Pick<SignatureRequestRow, 'id' | 'created_by_user_id' | 'template_id'>,
): Promise<RequestRelationsRow> {
  return db
    .selectNoFrom([
      createdByColumn(sql.val(row.created_by_user_id)).as('created_by'),
      templateArchivedColumn(sql.val(row.template_id)).as('template_archived'),
      recipientsColumn(sql.val(row.id)).as('recipients'),
    ])
    .executeTakeFirstOrThrow();
}

/** A user's name and email (the sender named in invitations). */
export async function findUserName(
  db: Executor,
  userId: number,
): Promise<{ name: string | null; email: string } | undefined> {
  return db.selectFrom('users').select(['name', 'email']).where('id', '=', userId).executeTakeFirst();
}

/** Cancels the request; returns it as it is now. */
export async function markRequestCanceled(tx: Tx, id: number, now: Date): Promise<SignatureRequestRow> {
  return tx
    .updateTable('signature_requests')
    .set({ status: 'canceled', canceled_at: now, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Notes that the request's signers were just reminded. */
export async function markRequestReminded(tx: Tx, id: number, now: Date): Promise<void> {
  await tx
    .updateTable('signature_requests')
    .set({ last_reminded_at: now, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Requests in one of `statuses` whose expiry has passed become `expired`; returns their ids. */
export async function expireRequestsDue(
  db: Executor,
  o: { statuses: readonly SignatureRequestRow['status'][]; now: Date },
): Promise<number[]> {
  const rows = await db
    .updateTable('signature_requests')
    .set({ status: 'expired', expired_at: o.now, updated_at: o.now })
    .where('status', 'in', [...o.statuses])
    .where('expires_at', '<=', o.now)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** A signer search: the full term (checked on every candidate) and the pattern the trigram indexes look up. */
export interface SignerSearch {
  term: string;
  /** An ILIKE pattern of a part of the term (the indexes find candidates with it). */
  pattern: string;
}

/**
 * Which requests a list shows by status: `stored` a stored status; `current` a stored open status
 * whose expiry has not passed; `open` any open status not past its expiry; `expired` stored
 * expired or open past its expiry.
 */
export type RequestStatusFilter =
  | { kind: 'stored'; status: SignatureRequestRow['status'] }
  | { kind: 'current'; status: SignatureRequestRow['status'] }
  | { kind: 'open'; statuses: readonly SignatureRequestRow['status'][] }
  | { kind: 'expired'; openStatuses: readonly SignatureRequestRow['status'][] };

export interface RequestListOptions {
  limit: number;
  cursor?: number;
  templateId?: number;
  status?: RequestStatusFilter;
  search?: SignerSearch;
  now: Date;
}

const SIGNER_COLUMNS = ['signers.name', 'signers.email', 'signers.phone'] as const;

/** The request has a signer whose name, email or phone contains the term, case-insensitively. */
function hasSignerMatching(eb: ExpressionBuilder<Database, 'signature_requests'>, search: SignerSearch) {
  // strpos on lower() is what ILIKE '%term%' tests (PostgreSQL lowers both sides, then matches);
  // written this way the planner keeps it out of the index scan, which uses the pattern alone.
  return eb.exists(
    eb
      .selectFrom('signers')
      .select(sql`1`.as('one'))
      .whereRef('signers.signature_request_id', '=', 'signature_requests.id')
      .where((s) => s.or(SIGNER_COLUMNS.map((c) => s(c, 'ilike', search.pattern))))
      .where((s) =>
        s.or(SIGNER_COLUMNS.map((c) => sql<boolean>`strpos(lower(${s.ref(c)}), lower(${search.term})) > 0`)),
      ),
  );
}

/**
 * `expired` is computed: stored `expired`, or open past `expires_at`. As one OR the planner can
 * only walk the account newest first until it has a page, reading more the rarer expired requests
 * are. Instead, the stored ones give their newest page from signature_requests_status_idx, and the
 * open ones past their date come from signature_requests_open_expiry_scope_idx by date (few: the
 * worker stores them as expired within 30 s), both with every other filter applied; the page is
 * the newest of those ids.
 */
function expiredIds(db: Executor, scope: Scope, o: RequestListOptions, openStatuses: readonly string[]) {
  const half = (where: (eb: ExpressionBuilder<Database, 'signature_requests'>) => Expression<SqlBool>) => {
    let s = db
      .selectFrom('signature_requests')
      .select('id')
      .where('account_id', '=', scope.accountId)
      .where('environment', '=', scope.environment)
      .where(where);
    if (o.cursor) s = s.where('id', '<', o.cursor);
    if (o.templateId) s = s.where('template_id', '=', o.templateId);
    const search = o.search;
    if (search) s = s.where((eb) => hasSignerMatching(eb, search));
    return s;
  };
  const stored = half((eb) => eb('status', '=', 'expired'))
    .orderBy('id', 'desc')
    .limit(o.limit + 1);
  const overdue = half((eb) =>
    eb.and([
      eb('status', 'in', [...openStatuses] as SignatureRequestRow['status'][]),
      eb('expires_at', '<=', o.now),
    ]),
  );
  return sql<number>`any(array(${stored}) || array(${overdue}))`;
}

/** A page of the account side's requests (one more than `limit`), newest first, with their views. */
export async function listRequestViews(
  db: Executor,
  scope: Scope,
  o: RequestListOptions,
): Promise<RequestViewRow[]> {
  let query = requestViews(db)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .orderBy('id', 'desc')
    .limit(o.limit + 1);
  if (o.cursor) query = query.where('id', '<', o.cursor);
  if (o.templateId) query = query.where('template_id', '=', o.templateId);
  const notExpired = (eb: ExpressionBuilder<Database, 'signature_requests'>) =>
    eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', o.now)]);
  const f = o.status;
  if (f?.kind === 'open') query = query.where('status', 'in', [...f.statuses]).where(notExpired);
  else if (f?.kind === 'current') query = query.where('status', '=', f.status).where(notExpired);
  else if (f?.kind === 'expired') query = query.where('id', '=', expiredIds(db, scope, o, f.openStatuses));
  else if (f?.kind === 'stored') query = query.where('status', '=', f.status);
  const search = o.search;
  if (search) query = query.where((eb) => hasSignerMatching(eb, search));
  return query.execute();
}
