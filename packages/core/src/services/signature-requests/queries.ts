import type { Executor, SignatureRequestRow, SignerRow, Tx } from '@esign/db';
import type { Scope } from '../../context.ts';
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

/** A request's signers in signing order. */
export function loadSigners(db: Executor, requestId: number): Promise<SignerRow[]> {
  return db
    .selectFrom('signers')
    .selectAll()
    .where('signature_request_id', '=', requestId)
    .orderBy('position')
    .orderBy('id')
    .execute();
}

/** Whether the request's template was archived (its signing links stop working). */
export async function templateArchived(db: Executor, templateId: number | null): Promise<boolean> {
  if (!templateId) return false;
  const t = await db
    .selectFrom('templates')
    .select('archived_at')
    .where('id', '=', templateId)
    .executeTakeFirst();
  return !!t?.archived_at;
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
