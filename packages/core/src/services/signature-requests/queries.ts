import type { Executor, SignatureRequestRow, SignatureRequestsTable, SignerRow, Tx } from '@esign/db';
import { type RawBuilder, sql } from 'kysely';
import type { Scope } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { type CreatedByDto, createdByColumn } from '../created-by.ts';
import { lockScoped, requireScoped } from '../scoped.ts';

// Reads of signature requests and signers: by id within one account side (scoped.ts), locks only
// inside a transaction.

/** The request, or `404 not_found`. */
export function requireRequest(db: Executor, scope: Scope, id: number): Promise<SignatureRequestRow> {
  return requireScoped(db, 'signature_requests', scope, id);
}

/** The request locked until the transaction ends, or `404 not_found`. */
export function lockRequest(tx: Tx, scope: Scope, id: number): Promise<SignatureRequestRow> {
  return lockScoped(tx, 'signature_requests', scope, id);
}

/** The signer, or `404 not_found`. */
export function requireSigner(db: Executor, scope: Scope, id: number): Promise<SignerRow> {
  return requireScoped(db, 'signers', scope, id);
}

/** The signer locked until the transaction ends (lock its request first), or `404 not_found`. */
export function lockSigner(tx: Tx, scope: Scope, id: number): Promise<SignerRow> {
  return lockScoped(tx, 'signers', scope, id);
}

/** What the Signature request object needs besides its row: the creator, whether its template is archived. */
interface RequestRelations {
  created_by: CreatedByDto | null;
  /** The request's template was archived (its signing links stop working). */
  template_archived: boolean;
}

export type RequestView = SignatureRequestRow & RequestRelations;

function templateArchivedColumn(templateId: RawBuilder<unknown>): RawBuilder<boolean> {
  return sql<boolean>`exists (select 1 from templates t where t.id = ${templateId} and t.archived_at is not null)`;
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

/** The request with its creator and template state, or `404 not_found`. */
export async function requireRequestView(db: Executor, scope: Scope, id: number): Promise<RequestView> {
  const row = await requestViews(db)
    .where('id', '=', id)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .executeTakeFirst();
  if (!row) throw notFound('Signature request', id);
  return row;
}

/** A row already at hand (just changed) with its creator and template state: one statement. */
export async function requestViewOf(db: Executor, row: SignatureRequestRow): Promise<RequestView> {
  const relations = await db
    .selectNoFrom([
      createdByColumn(sql.val(row.created_by_user_id)).as('created_by'),
      templateArchivedColumn(sql.val(row.template_id)).as('template_archived'),
    ])
    .executeTakeFirstOrThrow();
  return { ...row, ...relations };
}

/** The signers of several requests in one statement, each request's in signing order. */
export async function loadSignersOf(db: Executor, requestIds: number[]): Promise<Map<number, SignerRow[]>> {
  const byRequest = new Map<number, SignerRow[]>(requestIds.map((id) => [id, []]));
  if (requestIds.length === 0) return byRequest;
  const rows = await db
    .selectFrom('signers')
    .selectAll()
    .where('signature_request_id', 'in', requestIds)
    .orderBy('signature_request_id')
    .orderBy('position')
    .orderBy('id')
    .execute();
  for (const signer of rows) byRequest.get(signer.signature_request_id)?.push(signer);
  return byRequest;
}

/** A request's signers in signing order. */
export async function loadSigners(db: Executor, requestId: number): Promise<SignerRow[]> {
  return (await loadSignersOf(db, [requestId])).get(requestId) ?? [];
}

/** The name invitations give as the sender: the creating user's name or email. */
export async function senderNameOf(db: Executor, request: SignatureRequestRow): Promise<string> {
  if (!request.created_by_user_id) return 'The sender';
  const u = await db
    .selectFrom('users')
    .select(['name', 'email'])
    .where('id', '=', request.created_by_user_id)
    .executeTakeFirst();
  return u?.name ?? u?.email ?? 'The sender';
}
