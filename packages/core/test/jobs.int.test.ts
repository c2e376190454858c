import { createTestDatabase, type TestDatabase } from '@esign/testing/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  claimJob,
  enqueueJob,
  JOB_LEASE_MS,
  type JobContext,
  jobRetryDelayMs,
} from '../src/services/jobs.ts';
import { drainJobs, runOneJob, startWorker } from '../src/services/worker.ts';
import { testJobContext } from './job-context.ts';

let tdb: TestDatabase;
let ctx: JobContext;
beforeAll(async () => {
  tdb = await createTestDatabase();
  ctx = testJobContext(tdb.db);
});
afterAll(() => tdb.drop());

describe('durable job queue', () => {
  it('a job written in a transaction that rolls back does not exist', async () => {
    await tdb.db
      .transaction()
      .execute(async (tx) => {
        await enqueueJob(tx, { kind: 'rollback.test' });
        throw new Error('abort');
      })
      .catch(() => {});
    const n = await tdb.db.selectFrom('jobs').where('kind', '=', 'rollback.test').select('id').execute();
    expect(n).toHaveLength(0);
  });

  it('several workers at once: each job runs exactly once (FOR UPDATE SKIP LOCKED)', async () => {
    for (let i = 0; i < 40; i++) await enqueueJob(tdb.db, { kind: 'count', payload: { i } });
    const seen: number[] = [];
    const handlers = {
      count: async (_c: JobContext, p: Record<string, unknown>) => {
        await new Promise((r) => setTimeout(r, 2));
        seen.push(Number(p.i));
      },
    };
    await Promise.all(
      Array.from({ length: 4 }, (_, w) =>
        (async () => {
          while (await runOneJob(ctx, handlers, { workerId: `w${w}` })) {}
        })(),
      ),
    );
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i));
  });

  it('a failing job is retried with back-off and marked failed after max_attempts', async () => {
    await enqueueJob(tdb.db, { kind: 'flaky', maxAttempts: 2 });
    const handlers = {
      flaky: async () => {
        throw new Error('boom');
      },
    };
    let clock = new Date('2031-01-01T00:00:00Z');
    const c = { ...ctx, now: () => clock };
    expect(await runOneJob(c, handlers, { workerId: 'w' })).toBe(true);
    let job = await tdb.db
      .selectFrom('jobs')
      .selectAll()
      .where('kind', '=', 'flaky')
      .executeTakeFirstOrThrow();
    expect(job).toMatchObject({ status: 'queued', attempts: 1, last_error: 'boom' });
    expect(job.run_at.getTime()).toBe(clock.getTime() + jobRetryDelayMs(1));
    expect(await runOneJob(c, handlers, { workerId: 'w' })).toBe(false); // not due yet
    clock = new Date(clock.getTime() + 60_000);
    expect(await runOneJob(c, handlers, { workerId: 'w' })).toBe(true);
    job = await tdb.db.selectFrom('jobs').selectAll().where('kind', '=', 'flaky').executeTakeFirstOrThrow();
    expect(job.status).toBe('failed');
  });

  it('a job whose worker died is claimed again once its lease expires', async () => {
    await enqueueJob(tdb.db, { kind: 'lease' });
    const t0 = new Date('2032-01-01T00:00:00Z');
    const first = await claimJob(tdb.db, { workerId: 'dead-worker', now: t0, kinds: ['lease'] });
    expect(first).not.toBeNull();
    expect(
      await claimJob(tdb.db, {
        workerId: 'other',
        now: new Date(t0.getTime() + JOB_LEASE_MS - 1000),
        kinds: ['lease'],
      }),
    ).toBeNull();
    const again = await claimJob(tdb.db, {
      workerId: 'other',
      now: new Date(t0.getTime() + JOB_LEASE_MS + 1000),
      kinds: ['lease'],
    });
    expect(again?.id).toBe(first!.id);
    expect(again?.attempts).toBe(2);
  });

  it('unique keys collapse duplicates while one is pending', async () => {
    await enqueueJob(tdb.db, { kind: 'uniq', uniqueKey: 'sweep' });
    await enqueueJob(tdb.db, { kind: 'uniq', uniqueKey: 'sweep' });
    const rows = await tdb.db.selectFrom('jobs').select('id').where('kind', '=', 'uniq').execute();
    expect(rows).toHaveLength(1);
  });

  it('the worker loop runs jobs and stop() waits for the running one (graceful shutdown)', async () => {
    let finished = 0;
    await enqueueJob(tdb.db, { kind: 'slow' });
    const worker = startWorker(
      ctx,
      {
        slow: async () => {
          await new Promise((r) => setTimeout(r, 300));
          finished++;
        },
      },
      { concurrency: 2, pollMs: 20 },
    );
    await new Promise((r) => setTimeout(r, 100));
    await worker.stop();
    expect(finished).toBe(1);
    expect(await drainJobs(ctx, { slow: async () => {} })).toBe(0);
  });
});
