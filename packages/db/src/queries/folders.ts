import { type RawBuilder, sql } from 'kysely';
import type { Executor } from '../connection.ts';
import type { Scope } from '../scope.ts';

// Folders: names an account side files its templates under, made on first use.

/** The id of the folder named `name` in this account side, made if it does not exist yet. */
export async function ensureFolder(db: Executor, scope: Scope, name: string): Promise<number> {
  await db
    .insertInto('folders')
    .values({ account_id: scope.accountId, environment: scope.environment, name })
    .onConflict((oc) => oc.columns(['account_id', 'environment', 'name']).doNothing())
    .execute();
  const row = await db
    .selectFrom('folders')
    .select('id')
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The name of the folder `folderId` (a column reference or a value), as a column of another query. */
export function folderNameColumn(folderId: RawBuilder<unknown>): RawBuilder<string | null> {
  return sql<string | null>`(select f.name from folders f where f.id = ${folderId})`;
}
