import type { Db } from '@esign/db';
import { CoreError } from '../errors.ts';

export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
/** A `running` record whose process died is taken over after this long. */
const RUNNING_LEASE_MS = 5 * 60 * 1000;

export interface IdempotencyRequest {
  apiKeyId: number;
  path: string;
  key: string;
  requestHash: string;
}

export type IdempotencyStart = { kind: 'new' } | { kind: 'replay'; status: number; body: string };

/** Rule 1: at most 255 characters. */
export function checkIdempotencyKey(key: string): void {
  if (key.length === 0 || key.length > 255) {
    throw new CoreError('invalid_parameter', 'Idempotency-Key must be 1 to 255 characters long');
  }
}

/**
 * Claims the key (rules 2, 4, 5). The insert is atomic, so concurrent retries across processes see
 * exactly one `new`; the others get 409 while it runs and the stored response once it is done.
 */
export async function beginIdempotent(db: Db, req: IdempotencyRequest, now: Date): Promise<IdempotencyStart> {
  checkIdempotencyKey(req.key);
  for (let attempt = 0; attempt < 3; attempt++) {
    const inserted = await db
      .insertInto('idempotency_keys')
      .values({
        api_key_id: req.apiKeyId,
        path: req.path,
        key: req.key,
        request_hash: req.requestHash,
        status: 'running',
        locked_until: new Date(now.getTime() + RUNNING_LEASE_MS),
        expires_at: new Date(now.getTime() + IDEMPOTENCY_RETENTION_MS),
      })
      .onConflict((oc) => oc.columns(['api_key_id', 'path', 'key']).doNothing())
      .returning('key')
      .executeTakeFirst();
    if (inserted) return { kind: 'new' };

    const existing = await db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('api_key_id', '=', req.apiKeyId)
      .where('path', '=', req.path)
      .where('key', '=', req.key)
      .executeTakeFirst();
    if (!existing) continue; // released between our insert and select: try again
    const stale =
      existing.expires_at <= now || (existing.status === 'running' && existing.locked_until <= now);
    if (stale) {
      await db
        .deleteFrom('idempotency_keys')
        .where('api_key_id', '=', req.apiKeyId)
        .where('path', '=', req.path)
        .where('key', '=', req.key)
        .where('request_hash', '=', existing.request_hash)
        .where('status', '=', existing.status)
        .execute();
      continue;
    }
    if (existing.request_hash !== req.requestHash) {
      throw new CoreError(
        'idempotency_key_reused',
        'This Idempotency-Key was already used with a different request body; use a new key',
      );
    }
    if (existing.status === 'running') {
      throw new CoreError(
        'idempotency_key_in_use',
        'A request with this Idempotency-Key is still running; retry shortly with the same key',
      );
    }
    return { kind: 'replay', status: existing.response_status ?? 200, body: existing.response_body ?? '' };
  }
  throw new CoreError(
    'idempotency_key_in_use',
    'A request with this Idempotency-Key is being processed; retry shortly',
  );
}

/** Rule 2: the first successful response is stored. */
export async function completeIdempotent(
  db: Db,
  req: IdempotencyRequest,
  status: number,
  body: string,
): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ status: 'done', response_status: status, response_body: body })
    .where('api_key_id', '=', req.apiKeyId)
    .where('path', '=', req.path)
    .where('key', '=', req.key)
    .where('status', '=', 'running')
    .execute();
}

/** Rule 3: failed responses are not stored; the key can be retried. */
export async function releaseIdempotent(db: Db, req: IdempotencyRequest): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where('api_key_id', '=', req.apiKeyId)
    .where('path', '=', req.path)
    .where('key', '=', req.key)
    .where('status', '=', 'running')
    .execute();
}

export async function pruneIdempotencyKeys(db: Db, now: Date): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).execute();
}
