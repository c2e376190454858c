import type { Database, Executor, Tx } from '@esign/db';
import type { Selectable } from 'kysely';
import type { Scope } from '../context.ts';
import { notFound } from '../errors.ts';

// Reading a resource by id "within this account and environment", in one place. Scoping inside the
// query is what makes another account's (or the other side's) resource a 404 everywhere; locking
// functions take a `Tx`, so the type forbids calling them outside a transaction.

/** The tables whose rows belong to one account side (they have account_id and environment). */
const RESOURCE_NAME = {
  templates: 'Template',
  signature_requests: 'Signature request',
  signers: 'Signer',
  webhook_endpoints: 'Webhook endpoint',
} as const;

export type ScopedTable = keyof typeof RESOURCE_NAME;
export type ScopedRow<T extends ScopedTable> = Selectable<Database[T]>;

function scopedQuery(db: Executor, table: ScopedTable, scope: Scope, id: number) {
  return db
    .selectFrom(table)
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment);
}

/** The row, or undefined when it does not exist in this account side. */
export async function findScoped<T extends ScopedTable>(
  db: Executor,
  table: T,
  scope: Scope,
  id: number,
): Promise<ScopedRow<T> | undefined> {
  // Kysely cannot name the columns of a table chosen by a type parameter; the query is the same.
  return (await scopedQuery(db, table, scope, id).executeTakeFirst()) as ScopedRow<T> | undefined;
}

/** The row, or `404 not_found` naming the resource. */
export async function requireScoped<T extends ScopedTable>(
  db: Executor,
  table: T,
  scope: Scope,
  id: number,
): Promise<ScopedRow<T>> {
  const row = await findScoped(db, table, scope, id);
  if (!row) throw notFound(RESOURCE_NAME[table], id);
  return row;
}

/** The row locked (`FOR UPDATE`) until the transaction ends, or `404 not_found`. */
export async function lockScoped<T extends ScopedTable>(
  tx: Tx,
  table: T,
  scope: Scope,
  id: number,
): Promise<ScopedRow<T>> {
  const row = await scopedQuery(tx, table, scope, id).forUpdate().executeTakeFirst();
  if (!row) throw notFound(RESOURCE_NAME[table], id);
  return row as ScopedRow<T>;
}
