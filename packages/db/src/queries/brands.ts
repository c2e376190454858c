import { type Insertable, sql, type Updateable } from 'kysely';
import type { Executor, Tx } from '../connection.ts';
import type { BrandRow, BrandsTable } from '../schema-brands.ts';
import type { Scope } from '../scope.ts';

// Brands of one account side (issue 44). Every query is scoped by account and environment: another
// account's brand is never found, so it is a 404 wherever an id is given.

export type BrandInsert = Omit<Insertable<BrandsTable>, 'account_id' | 'environment'>;
export type BrandUpdate = Omit<Updateable<BrandsTable>, 'id' | 'account_id' | 'environment' | 'created_at'>;

function scoped(db: Executor, scope: Scope) {
  return db
    .selectFrom('brands')
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment);
}

/** One page of brands, newest first, below `cursor`: `limit + 1` rows (see list-page.ts). */
export function listBrandRows(
  db: Executor,
  scope: Scope,
  page: { limit: number; cursor?: number | undefined },
): Promise<BrandRow[]> {
  let q = scoped(db, scope).selectAll();
  if (page.cursor !== undefined) q = q.where('id', '<', page.cursor);
  return q
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute();
}

export function findBrand(db: Executor, scope: Scope, id: number): Promise<BrandRow | undefined> {
  return scoped(db, scope).selectAll().where('id', '=', id).executeTakeFirst();
}

/** The brand locked until the transaction ends (an update or a delete decides on it). */
export function lockBrand(tx: Tx, scope: Scope, id: number): Promise<BrandRow | undefined> {
  return scoped(tx, scope).selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/** Whether the account side has any brand yet. */
export async function hasBrands(db: Executor, scope: Scope): Promise<boolean> {
  return !!(await scoped(db, scope).select('id').limit(1).executeTakeFirst());
}

/**
 * The brand a request shows: its own choice, else its template's, else the account side's
 * default; undefined when none applies. One statement.
 */
export async function findEffectiveBrand(
  db: Executor,
  scope: Scope,
  choice: { requestBrandId: number | null; templateId: number | null },
): Promise<BrandRow | undefined> {
  const templateBrand = sql<
    number | null
  >`(select t.brand_id from templates t where t.id = ${choice.templateId ?? 0}
    and t.account_id = ${scope.accountId} and t.environment = ${scope.environment})`;
  const chosen = sql<number | null>`coalesce(${choice.requestBrandId}::integer, ${templateBrand})`;
  return scoped(db, scope)
    .selectAll()
    .where((eb) => eb.or([eb('id', '=', chosen), eb('is_default', '=', true)]))
    .orderBy(sql`(id = ${chosen}) is true`, 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Clears the side's default flag (before another brand becomes the default, in the same tx). */
export async function clearDefaultBrand(tx: Tx, scope: Scope, exceptId?: number): Promise<void> {
  let q = tx
    .updateTable('brands')
    .set({ is_default: false })
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .where('is_default', '=', true);
  if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
  await q.execute();
}

export function insertBrand(tx: Tx, scope: Scope, values: BrandInsert): Promise<BrandRow> {
  return tx
    .insertInto('brands')
    .values({ ...values, account_id: scope.accountId, environment: scope.environment })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function updateBrandRow(tx: Tx, scope: Scope, id: number, values: BrandUpdate): Promise<BrandRow> {
  return tx
    .updateTable('brands')
    .set(values)
    .where('id', '=', id)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteBrandRow(tx: Tx, scope: Scope, id: number): Promise<void> {
  await tx
    .deleteFrom('brands')
    .where('id', '=', id)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .execute();
}
