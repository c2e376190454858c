import type { Executor } from '@esign/db';
import { sql } from 'kysely';

export interface RateLimitResult {
  limit: number;
  remaining: number;
  /** Seconds until the current window ends. */
  resetSeconds: number;
  limited: boolean;
}

const WINDOW_MS = 60_000;

/**
 * Fixed one-minute windows counted in the database, so every API process shares them:
 * one upsert per request, atomic under concurrency.
 */
export async function hitRateLimit(
  db: Executor,
  bucket: string,
  limit: number,
  now: Date,
): Promise<RateLimitResult> {
  const windowStart = new Date(Math.floor(now.getTime() / WINDOW_MS) * WINDOW_MS);
  const row = await db
    .insertInto('rate_limit_windows')
    .values({ bucket, window_start: windowStart, count: 1 })
    .onConflict((oc) =>
      oc.columns(['bucket', 'window_start']).doUpdateSet({ count: sql`rate_limit_windows.count + 1` }),
    )
    .returning('count')
    .executeTakeFirstOrThrow();
  const resetSeconds = Math.max(1, Math.ceil((windowStart.getTime() + WINDOW_MS - now.getTime()) / 1000));
  return { limit, remaining: Math.max(0, limit - row.count), resetSeconds, limited: row.count > limit };
}

export async function pruneRateLimitWindows(db: Executor, now: Date): Promise<void> {
  await db
    .deleteFrom('rate_limit_windows')
    .where('window_start', '<', new Date(now.getTime() - 2 * WINDOW_MS))
    .execute();
}
