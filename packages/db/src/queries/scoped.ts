import type { Selectable } from 'kysely';
import type { Executor, Tx } from '../connection.ts';
import type { Database } from '../schema.ts';
import type { Scope } from '../scope.ts';

// Reading one resource by id "within this account and environment". Scoping inside the query is
// what makes another account's (or the other side's) resource a 404 everywhere; the locking read
// takes a `Tx`, so the type forbids calling it outside a transaction.

/** The tables whose rows belong to one account side (they have account_id and environment). */
export type ScopedTable = 'templates' | 'signature_requests' | 'signers' | 'webhook_endpoints';
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

/** The row locked (`FOR UPDATE`) until the transaction ends, or undefined. */
export async function lockScopedRow<T extends ScopedTable>(
  tx: Tx,
  table: T,
  scope: Scope,
  id: number,
): Promise<ScopedRow<T> | undefined> {
  return (await scopedQuery(tx, table, scope, id).forUpdate().executeTakeFirst()) as ScopedRow<T> | undefined;
}
