import type { Executor, Scope, Tx } from '@esign/db';
import { findScoped, lockScopedRow, type ScopedRow, type ScopedTable } from '@esign/db/queries/scoped';
import { notFound } from '../errors.ts';

// The decision on top of packages/db's scoped reads: a row missing from this account side is a
// `404 not_found` naming the resource.

const RESOURCE_NAME = {
  templates: 'Template',
  signature_requests: 'Signature request',
  signers: 'Signer',
  webhook_endpoints: 'Webhook endpoint',
} as const satisfies Record<ScopedTable, string>;

/** The row, or `404 not_found` naming the resource. */
export async function requireScoped<T extends ScopedTable>(
  db: Executor,
  table: T,
  { scope, id }: { scope: Scope; id: number },
): Promise<ScopedRow<T>> {
  const row = await findScoped(db, table, scope, id);
  if (!row) throw notFound(RESOURCE_NAME[table], id);
  return row;
}

/** The row locked (`FOR UPDATE`) until the transaction ends, or `404 not_found`. */
export async function lockScoped<T extends ScopedTable>(
  tx: Tx,
  table: T,
  { scope, id }: { scope: Scope; id: number },
): Promise<ScopedRow<T>> {
  const row = await lockScopedRow(tx, table, scope, id);
  if (!row) throw notFound(RESOURCE_NAME[table], id);
  return row;
}
