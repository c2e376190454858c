import { type Insertable, type RawBuilder, sql } from 'kysely';
import type { Executor, Tx } from '../connection.ts';
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
    'options', f.options, 'areas', f.areas) order by f.position), '[]'::jsonb)
  from template_fields f where f.template_id = templates.id)`;

const sendDocuments = sql<SendDocumentRow[]>`(select coalesce(jsonb_agg(jsonb_build_object(
    'id', d.id, 'name', d.name, 'storage_key', d.storage_key, 'sha256', d.sha256,
    'uploaded_sha256', d.uploaded_sha256, 'pages', d.pages) order by d.position), '[]'::jsonb)
  from template_documents d where d.template_id = templates.id)`;

function sendSourceQuery(db: Executor, scope: Scope, o: SendSourceOptions) {
  return db
    .selectFrom('templates')
    .selectAll('templates')
    .select([
      sendFields.as('fields'),
      sendDocuments.as('documents'),
      (o.withCredits ? creditsColumn(scope.accountId, sql.ref('templates.id')) : sql<null>`null`).as('credits'),
      createdByColumn(sql.val(o.userId)).as('created_by'),
      // The locked row's version against the one this statement's snapshot sees (see `changed`).
      sql<boolean>`templates.xmin::text <> (select t.xmin::text from templates t where t.id = templates.id)`.as(
        'changed',
      ),
    ])
    .where('templates.id', '=', o.templateId)
    .where('templates.account_id', '=', scope.accountId)
    .where('templates.environment', '=', scope.environment);
}

function toSendSource(row: Awaited<ReturnType<ReturnType<typeof sendSourceQuery>['executeTakeFirst']>>) {
  if (!row) return undefined;
  const { fields, documents, credits, created_by, changed, ...template } = row;
  return { template, fields, documents, credits, created_by, changed: changed === true } as SendSourceRow;
}

/** The template with its fields, documents (and credits), not locked: the checks before a transaction. */
export async function findSendSource(
  db: Executor,
  scope: Scope,
  o: SendSourceOptions,
): Promise<SendSourceRow | undefined> {
  return toSendSource(await sendSourceQuery(db, scope, o).executeTakeFirst());
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
  return toSendSource(await sendSourceQuery(tx, scope, o).forShare().executeTakeFirst());
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
] as const satisfies readonly (keyof SignatureRequestsTable)[];

/** Compiles only while COLUMNS_BUT_SNAPSHOT names every column but the snapshot. */
export type ViewColumnsComplete =
  Exclude<keyof SignatureRequestsTable, (typeof COLUMNS_BUT_SNAPSHOT)[number] | 'snapshot'> extends never
    ? true
    : never;

export type SignatureRequestInsert = Insertable<Database['signature_requests']>;

/** Writes the requests; returns every column but the snapshot (the caller has it), in input order. */
export async function insertSignatureRequests(
  tx: Tx,
  rows: SignatureRequestInsert[],
): Promise<Omit<SignatureRequestRow, 'snapshot'>[]> {
  if (rows.length === 0) return [];
  return tx.insertInto('signature_requests').values(rows).returning(COLUMNS_BUT_SNAPSHOT).execute();
}

/** What the Signature request object needs besides its row. */
export interface RequestRelationsRow {
  created_by: CreatedByRow | null;
  /** The request's template was archived (its signing links stop working). */
  template_archived: boolean;
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
    ]);
}

/** The request with its creator and template state, or undefined outside this account side. */
export async function findRequestView(db: Executor, scope: Scope, id: number): Promise<RequestViewRow | undefined> {
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
  row: Pick<SignatureRequestRow, 'created_by_user_id' | 'template_id'>,
): Promise<RequestRelationsRow> {
  return db
    .selectNoFrom([
      createdByColumn(sql.val(row.created_by_user_id)).as('created_by'),
      templateArchivedColumn(sql.val(row.template_id)).as('template_archived'),
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
