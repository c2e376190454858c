import { type ExpressionBuilder, type Selectable, sql } from 'kysely';
import type { Executor } from '../connection.ts';
import type { Database } from '../schema.ts';

// Idempotency-Key records (packages/core/src/services/idempotency.ts holds the rules: claims,
// leases, outcomes, replays). One record per (API key, path, key). Every time here is the
// database's (`now()`): processes whose clocks disagree still agree on a lease and on expiry.

export type IdempotencyRecordRow = Selectable<Database['idempotency_keys']>;

/** Which record: the API key, the path and the client's key. */
export interface IdempotencyKeyRef {
  apiKeyId: number;
  path: string;
  key: string;
}

/** One claim on a record: the record, and the id the claim got when it was inserted. */
interface IdempotencyClaimRef extends IdempotencyKeyRef {
  claimId: string;
}

/** `ms` milliseconds as a PostgreSQL interval. */
const ms = (n: number) => sql<string>`make_interval(secs => ${n / 1000})`;

/**
 * Inserts a `running` claim unless a record for the key exists (one atomic statement, so
 * concurrent claims see exactly one winner). Its lease and expiry are the database's time plus
 * `leaseMs` and `retentionMs`. Returns the new claim's id, or null when a record exists.
 */
export async function insertIdempotencyClaim(
  db: Executor,
  ref: IdempotencyKeyRef,
  claim: { requestHash: string; leaseMs: number; retentionMs: number },
): Promise<string | null> {
  const inserted = await db
    .insertInto('idempotency_keys')
    .values({
      api_key_id: ref.apiKeyId,
      path: ref.path,
      key: ref.key,
      request_hash: claim.requestHash,
      status: 'running',
      locked_until: sql<Date>`now() + ${ms(claim.leaseMs)}`,
      expires_at: sql<Date>`now() + ${ms(claim.retentionMs)}`,
    })
    .onConflict((oc) => oc.columns(['api_key_id', 'path', 'key']).doNothing())
    .returning('claim_id')
    .executeTakeFirst();
  return inserted?.claim_id ?? null;
}

/** The record, with whether it expired and whether its lease lapsed, by the database's clock. */
export async function findIdempotencyRecord(
  db: Executor,
  ref: IdempotencyKeyRef,
): Promise<(IdempotencyRecordRow & { expired: boolean; lapsed: boolean }) | undefined> {
  return db
    .selectFrom('idempotency_keys')
    .selectAll()
    .select([
      sql<boolean>`expires_at <= now()`.as('expired'),
      sql<boolean>`locked_until <= now()`.as('lapsed'),
    ])
    .where('api_key_id', '=', ref.apiKeyId)
    .where('path', '=', ref.path)
    .where('key', '=', ref.key)
    .executeTakeFirst();
}

/** Deletes the record only while it is still the one that was read (the same claim, same status). */
export async function deleteIdempotencyRecordAsRead(
  db: Executor,
  ref: IdempotencyKeyRef,
  read: Pick<IdempotencyRecordRow, 'claim_id' | 'status'>,
): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('api_key_id', '=', ref.apiKeyId)
    .where('path', '=', ref.path)
    .where('key', '=', ref.key)
    .where('claim_id', '=', read.claim_id)
    .where('status', '=', read.status)
    .execute();
}

/**
 * In the transaction of the work the claim guards: the `running` claim becomes `committed`, naming
 * what the work made (or carrying its answer). Returns false when this claim no longer holds the
 * record (a retry took it over): the caller rolls its work back. The row stays locked until the
 * transaction ends, so a claim taken over meanwhile waits for it and then sees it committed.
 */
export async function markIdempotencyClaimCommitted(
  db: Executor,
  claim: IdempotencyClaimRef,
  outcome: { resourceType: string; resourceId: string; body: string | null },
): Promise<boolean> {
  const marked = await db
    .updateTable('idempotency_keys')
    .set({
      status: 'committed',
      resource_type: outcome.resourceType,
      resource_id: outcome.resourceId,
      response_body: outcome.body,
    })
    .where('api_key_id', '=', claim.apiKeyId)
    .where('path', '=', claim.path)
    .where('key', '=', claim.key)
    .where('claim_id', '=', claim.claimId)
    .where('status', '=', 'running')
    .returning('claim_id')
    .executeTakeFirst();
  return marked !== undefined;
}

/** The claim's record (`running` or `committed`) becomes `done` with the response it stored. */
export async function storeIdempotentResponse(
  db: Executor,
  claim: IdempotencyClaimRef,
  response: { status: number; body: string },
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ status: 'done', response_status: response.status, response_body: response.body })
    .where('api_key_id', '=', claim.apiKeyId)
    .where('path', '=', claim.path)
    .where('key', '=', claim.key)
    .where('claim_id', '=', claim.claimId)
    .where('status', 'in', ['running', 'committed'])
    .execute();
}

/** Deletes the record if this claim still holds it and nothing committed under it. */
export async function deleteRunningIdempotencyClaim(db: Executor, claim: IdempotencyClaimRef): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('api_key_id', '=', claim.apiKeyId)
    .where('path', '=', claim.path)
    .where('key', '=', claim.key)
    .where('claim_id', '=', claim.claimId)
    .where('status', '=', 'running')
    .execute();
}

export async function deleteExpiredIdempotencyRecords(db: Executor): Promise<void> {
  await db.deleteFrom('idempotency_keys').where(sql<boolean>`expires_at <= now()`).execute();
}

/**
 * Renews the leases of these `running` claims to the database's time plus `leaseMs`, in one
 * statement. A record locked by the transaction committing its work is skipped (that transaction
 * decides it; the next renewal comes within seconds), so a renewal never waits on one.
 */
export async function renewIdempotencyLeases(
  db: Executor,
  claims: readonly IdempotencyClaimRef[],
  leaseMs: number,
): Promise<void> {
  const own = (eb: ExpressionBuilder<Database, 'idempotency_keys'>) =>
    eb.or(
      claims.map((c) =>
        eb.and([
          eb('api_key_id', '=', c.apiKeyId),
          eb('path', '=', c.path),
          eb('key', '=', c.key),
          eb('claim_id', '=', c.claimId),
        ]),
      ),
    );
  await db
    .updateTable('idempotency_keys')
    .set({ locked_until: sql<Date>`now() + ${ms(leaseMs)}` })
    .where('status', '=', 'running')
    .where('claim_id', 'in', (qb) =>
      qb
        .selectFrom('idempotency_keys')
        .select('claim_id')
        .where('status', '=', 'running')
        .where(own)
        .forUpdate()
        .skipLocked(),
    )
    .where(own)
    .execute();
}
