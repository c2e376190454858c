import type { Executor, SignatureRequestRow, SignerRow, Tx } from '@esign/db';
import {
  findRequestRelations,
  findRequestView,
  findUserName,
  type RequestViewRow,
  requestViews,
} from '@esign/db/queries/signature-requests';
import { findSignersOf } from '@esign/db/queries/signers';
import type { Scope } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { lockScoped, requireScoped } from '../scoped.ts';

// Reads of signature requests and signers: by id within one account side (scoped.ts), locks only
// inside a transaction.

/** The request, or `404 not_found`. */
export function requireRequest(db: Executor, scope: Scope, id: number): Promise<SignatureRequestRow> {
  return requireScoped(db, 'signature_requests', { scope, id });
}

/** The request locked until the transaction ends, or `404 not_found`. */
export function lockRequest(tx: Tx, scope: Scope, id: number): Promise<SignatureRequestRow> {
  return lockScoped(tx, 'signature_requests', { scope, id });
}

/** The signer, or `404 not_found`. */
export function requireSigner(db: Executor, scope: Scope, id: number): Promise<SignerRow> {
  return requireScoped(db, 'signers', { scope, id });
}

/** The signer locked until the transaction ends (lock its request first), or `404 not_found`. */
export function lockSigner(tx: Tx, scope: Scope, id: number): Promise<SignerRow> {
  return lockScoped(tx, 'signers', { scope, id });
}

export type { ViewColumnsComplete } from '@esign/db/queries/signature-requests';
export { requestViews };

/** A request with what its DTO shows besides the row: its creator and whether its template is archived. */
export type RequestView = RequestViewRow;

/** The request with its creator and template state, or `404 not_found`. */
export async function requireRequestView(db: Executor, scope: Scope, id: number): Promise<RequestView> {
  const row = await findRequestView(db, scope, id);
  if (!row) throw notFound('Signature request', id);
  return row;
}

/** A row already at hand (just changed) with its creator and template state: one statement. */
export async function requestViewOf(db: Executor, row: SignatureRequestRow): Promise<RequestView> {
  return { ...row, ...(await findRequestRelations(db, row)) };
}

/** The signers of several requests in one statement, each request's in signing order. */
export async function loadSignersOf(db: Executor, requestIds: number[]): Promise<Map<number, SignerRow[]>> {
  const byRequest = new Map<number, SignerRow[]>(requestIds.map((id) => [id, []]));
  for (const signer of await findSignersOf(db, requestIds))
    byRequest.get(signer.signature_request_id)?.push(signer);
  return byRequest;
}

/** A request's signers in signing order. */
export async function loadSigners(db: Executor, requestId: number): Promise<SignerRow[]> {
  return (await loadSignersOf(db, [requestId])).get(requestId) ?? [];
}

/** The name invitations give as the sender: the creating user's name or email. */
export async function senderNameOf(db: Executor, request: SignatureRequestRow): Promise<string> {
  if (!request.created_by_user_id) return 'The sender';
  const u = await findUserName(db, request.created_by_user_id);
  return u?.name ?? u?.email ?? 'The sender';
}
