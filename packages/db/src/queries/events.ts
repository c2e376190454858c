import type { Executor } from '../connection.ts';
import type { SignerRow } from '../schema.ts';
import type { Scope } from '../scope.ts';

// Reads of the objects events are about, many at once (the webhook worker builds the `data` of a
// batch of events with a few statements). The endpoints' own read is in ./webhooks.ts.

/** These signers of an account side (every column, as the signer's API object needs), by id. */
export async function findEventSigners(
  db: Executor,
  scope: Scope,
  ids: readonly number[],
): Promise<SignerRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('signers')
    .selectAll()
    .where('id', 'in', ids)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .execute();
}
