import { type Selectable, sql } from 'kysely';
import type { Executor } from '../connection.ts';
import type { Database } from '../schema.ts';

// Idempotency-Key records (packages/core/src/services/idempotency.ts holds the rules: claims,
// leases, replays). One record per (API key, path, key).

export type IdempotencyRecordRow = Selectable<Database['idempotency_keys']>;

/** Which record: the API key, the path and the client's key. */
export interface IdempotencyKeyRef {
  apiKeyId: number;
  path: string;
  key: string;
}

/**
 * Inserts a `running` claim unless a record for the key exists (one atomic statement, so
 * concurrent claims see exactly one winner). Returns whether it was inserted.
 */
export async function insertIdempotencyClaim(
  db: Executor,
  ref: IdempotencyKeyRef,
  claim: { requestHash: string; lockedUntil: Date; expiresAt: Date },
): Promise<boolean> {
  const inserted = await db
    .insertInto('idempotency_keys')
    .values({
      api_key_id: ref.apiKeyId,
      path: ref.path,
      key: ref.key,
      request_hash: claim.requestHash,
      status: 'running',
      locked_until: claim.lockedUntil,
      expires_at: claim.expiresAt,
    })
    .onConflict((oc) => oc.columns(['api_key_id', 'path', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function findIdempotencyRecord(
  db: Executor,
  ref: IdempotencyKeyRef,
): Promise<IdempotencyRecordRow | undefined> {
  return db
    .selectFrom('idempotency_keys')
    .selectAll()
    .where('api_key_id', '=', ref.apiKeyId)
    .where('path', '=', ref.path)
    .where('key', '=', ref.key)
    .executeTakeFirst();
}

/** Deletes the record only while it is still the one that was read (same request hash and status). */
export async function deleteIdempotencyRecordAsRead(
  db: Executor,
  ref: IdempotencyKeyRef,
  read: Pick<IdempotencyRecordRow, 'request_hash' | 'status'>,
): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('api_key_id', '=', ref.apiKeyId)
    .where('path', '=', ref.path)
    .where('key', '=', ref.key)
    .where('request_hash', '=', read.request_hash)
    .where('status', '=', read.status)
    .execute();
}

/** A `running` claim becomes `done` with the response it stored. */
export async function storeIdempotentResponse(
  db: Executor,
  ref: IdempotencyKeyRef,
  response: { status: number; body: string },
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ status: 'done', response_status: response.status, response_body: response.body })
    .where('api_key_id', '=', ref.apiKeyId)
    .where('path', '=', ref.path)
    .where('key', '=', ref.key)
    .where('status', '=', 'running')
    .execute();
}

/** Deletes the record if it is still a `running` claim. */
export async function deleteRunningIdempotencyClaim(db: Executor, ref: IdempotencyKeyRef): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('api_key_id', '=', ref.apiKeyId)
    .where('path', '=', ref.path)
    .where('key', '=', ref.key)
    .where('status', '=', 'running')
    .execute();
}

export async function deleteExpiredIdempotencyRecords(db: Executor, now: Date): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).execute();
}

/**
 * Renews the leases of these `running` claims to `until`, in one statement; a lease is never moved
 * back (`greatest`), so a claim dated by a clock ahead of this one keeps its date.
 */
export async function renewIdempotencyLeases(
  db: Executor,
  claims: readonly IdempotencyKeyRef[],
  until: Date,
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ locked_until: sql<Date>`greatest(locked_until, ${until})` })
    .where('status', '=', 'running')
    .where((eb) =>
      eb.or(
        claims.map((c) =>
          eb.and([eb('api_key_id', '=', c.apiKeyId), eb('path', '=', c.path), eb('key', '=', c.key)]),
        ),
      ),
    )
    .execute();
}
