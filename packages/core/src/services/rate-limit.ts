import type { Executor } from '@esign/db';
import { sql } from 'kysely';
import type { Actor } from '../context.ts';
import { CoreError } from '../errors.ts';

export interface RateLimitResult {
  limit: number;
  remaining: number;
  /** Seconds until the current window ends. */
  resetSeconds: number;
  limited: boolean;
}

const WINDOW_MS = 60_000;

/**
 * Every request of one key upserts the same window row, so they queue on its row lock until each
 * commits; waiting for the commit's WAL flush there would cap a key at one request per flush. The
 * statement that counts therefore commits without waiting for the flush (`synchronous_commit = off`
 * for its own transaction only): a crash can forget the last few milliseconds of counts, never
 * double one, and the window stays exact and shared between processes.
 */
export function asyncCommit() {
  return sql<string>`set_config('synchronous_commit', 'off', true)`.as('async_commit');
}

/** The start of the fixed one-minute window `now` falls in. */
export function rateLimitWindowStart(now: Date): Date {
  return new Date(Math.floor(now.getTime() / WINDOW_MS) * WINDOW_MS);
}

/** The header values of a window that has counted `count` requests, this one included. */
export function rateLimitResult(count: number, limit: number, now: Date): RateLimitResult {
  const windowStart = rateLimitWindowStart(now);
  const resetSeconds = Math.max(1, Math.ceil((windowStart.getTime() + WINDOW_MS - now.getTime()) / 1000));
  return { limit, remaining: Math.max(0, limit - count), resetSeconds, limited: count > limit };
}

/**
 * Fixed one-minute windows counted in the database, so every API process shares them:
 * one upsert per request, atomic under concurrency. `calls` is how many calls the request makes
 * (a batch counts each of its calls), added in that one upsert.
 */
export async function hitRateLimit(
  db: Executor,
  bucket: string,
  limit: number,
  now: Date,
  calls = 1,
): Promise<RateLimitResult> {
  const row = await db
    .insertInto('rate_limit_windows')
    .values({ bucket, window_start: rateLimitWindowStart(now), count: calls })
    .onConflict((oc) =>
      oc
        .columns(['bucket', 'window_start'])
        .doUpdateSet({ count: sql`rate_limit_windows.count + excluded.count` }),
    )
    .returning(['count', asyncCommit()])
    .executeTakeFirstOrThrow();
  return rateLimitResult(row.count, limit, now);
}

export async function pruneRateLimitWindows(db: Executor, now: Date): Promise<void> {
  await db
    .deleteFrom('rate_limit_windows')
    .where('window_start', '<', new Date(now.getTime() - 2 * WINDOW_MS))
    .execute();
}

/** One window per API key, per OAuth connection (client and user), per dashboard user. */
export function bucketOf(actor: Pick<Actor, 'kind' | 'apiKeyId' | 'oauthClientId' | 'userId'>): string {
  switch (actor.kind) {
    case 'api_key':
      return `api_key:${actor.apiKeyId}`;
    case 'oauth':
      return `oauth:${actor.oauthClientId}:${actor.userId}`;
    case 'session':
      return `session:${actor.userId}`;
  }
}

/** The 429 `rate_limited` error of a window over its limit, or null. */
export function rateLimitError(result: RateLimitResult): CoreError | null {
  if (!result.limited) return null;
  return new CoreError(
    'rate_limited',
    `Rate limit of ${result.limit} requests per minute exceeded; retry after ${result.resetSeconds} s`,
    { retryAfterSeconds: result.resetSeconds },
  );
}

/**
 * The spec's per-key limit for an authenticated actor (REST and MCP share the window): the result
 * carries the header values and, when over the limit, the 429 error to send. `calls`: how many
 * calls the request makes (each call of a batch counts).
 */
export async function limitActor(
  db: Executor,
  actor: Pick<Actor, 'kind' | 'apiKeyId' | 'oauthClientId' | 'userId'>,
  perMinute: number,
  now: Date,
  calls = 1,
): Promise<RateLimitResult & { error: CoreError | null }> {
  const result = await hitRateLimit(db, bucketOf(actor), perMinute, now, calls);
  return { ...result, error: rateLimitError(result) };
}
