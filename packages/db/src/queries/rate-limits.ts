import { sql } from 'kysely';
import type { Executor } from '../connection.ts';

// Rate-limit windows: one row per bucket and fixed window, counted by one upsert per request
// (packages/core/src/services/rate-limit.ts holds the windows' rules and the limits).

/**
 * Every request of one key upserts the same window row, so they queue on its row lock until each
 * commits; waiting for the commit's WAL flush there would cap a key at one request per flush. The
 * statement that counts therefore commits without waiting for the flush (`synchronous_commit = off`
 * for its own transaction only): a crash can forget the last few milliseconds of counts, never
 * double one, and the window stays exact and shared between processes.
 */
function asyncCommit() {
  return sql<string>`set_config('synchronous_commit', 'off', true)`.as('async_commit');
}

/**
 * Adds `calls` to the bucket's window starting at `windowStart` (created at `calls` when new), in
 * one upsert that is atomic under concurrency. Returns the window's count, this hit included.
 */
export async function countRateLimitHit(
  db: Executor,
  bucket: string,
  hit: { windowStart: Date; calls: number },
): Promise<number> {
  const row = await db
    .insertInto('rate_limit_windows')
    .values({ bucket, window_start: hit.windowStart, count: hit.calls })
    .onConflict((oc) =>
      oc
        .columns(['bucket', 'window_start'])
        .doUpdateSet({ count: sql`rate_limit_windows.count + excluded.count` }),
    )
    .returning(['count', asyncCommit()])
    .executeTakeFirstOrThrow();
  return row.count;
}

/** The bucket's count in the window starting at `windowStart` so far (0 when it has none), counting nothing. */
export async function readRateLimitCount(db: Executor, bucket: string, windowStart: Date): Promise<number> {
  const row = await db
    .selectFrom('rate_limit_windows')
    .select('count')
    .where('bucket', '=', bucket)
    .where('window_start', '=', windowStart)
    .executeTakeFirst();
  return row?.count ?? 0;
}

/** Deletes the windows that started before `before`. */
export async function deleteRateLimitWindowsBefore(db: Executor, before: Date): Promise<void> {
  await db.deleteFrom('rate_limit_windows').where('window_start', '<', before).execute();
}
