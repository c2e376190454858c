import type { Executor } from '@esign/db';
import {
  countRateLimitHit,
  deleteRateLimitWindowsBefore,
  readRateLimitCount,
} from '@esign/db/queries/rate-limits';
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

/** One request against a window's limit. */
export interface RateLimitHit {
  limit: number;
  now: Date;
  /** How many calls the request makes (a batch counts each of its calls); 1 when unset. */
  calls?: number;
}

/**
 * Fixed one-minute windows counted in the database, so every API process shares them:
 * one upsert per request, atomic under concurrency (its commit does not wait for the WAL flush:
 * see packages/db/src/queries/rate-limits.ts). `calls` is added in that one upsert.
 */
export async function hitRateLimit(
  db: Executor,
  bucket: string,
  hit: RateLimitHit,
): Promise<RateLimitResult> {
  const { limit, now } = hit;
  const count = await countRateLimitHit(db, bucket, {
    windowStart: rateLimitWindowStart(now),
    calls: hit.calls ?? 1,
  });
  return rateLimitResult(count, limit, now);
}

/**
 * Whether the bucket's window is already full, counting nothing: for a refusal before a large body
 * is read (the hit that counts still comes with the request's own work).
 */
export async function peekRateLimit(
  db: Executor,
  bucket: string,
  hit: RateLimitHit,
): Promise<RateLimitResult> {
  const count = await readRateLimitCount(db, bucket, rateLimitWindowStart(hit.now));
  // As the next hit would see it.
  return rateLimitResult(count + (hit.calls ?? 1), hit.limit, hit.now);
}

export async function pruneRateLimitWindows(db: Executor, now: Date): Promise<void> {
  await deleteRateLimitWindowsBefore(db, new Date(now.getTime() - 2 * WINDOW_MS));
}

/** One window per API key, per OAuth connection (client and user), per dashboard user. */
function bucketOf(actor: Pick<Actor, 'kind' | 'apiKeyId' | 'oauthClientId' | 'userId'>): string {
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
  hit: RateLimitHit,
): Promise<RateLimitResult & { error: CoreError | null }> {
  const result = await hitRateLimit(db, bucketOf(actor), hit);
  return { ...result, error: rateLimitError(result) };
}
