import { createTestDatabase, type TestDatabase } from '@esign/testing/db';
import { recordStatements } from '@esign/testing/statements';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueJob, enqueueJobs, type JobContext, type JobHandler } from '../src/services/jobs.ts';
import { startWorker, type WorkerHandle } from '../src/services/worker.ts';
import { testJobContext } from './job-context.ts';

let tdb: TestDatabase;
let ctx: JobContext;
beforeAll(async () => {
  tdb = await createTestDatabase();
  ctx = testJobContext(tdb.db);
});
afterAll(() => tdb.drop());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Backend pids of this database's job listener connections (only those listening, if asked). */
async function listenerPids(listening = false): Promise<number[]> {
  const { rows } = await sql<{ pid: number }>`
    select pid from pg_stat_activity
    where datname = current_database() and application_name = 'esign-jobs-listen'
      and (not ${listening} or (state = 'idle' and query ilike 'listen %'))`.execute(tdb.db);
  return rows.map((r) => r.pid);
}

/**
 * A notification sent after everything the test did: PostgreSQL delivers a channel's
 * notifications in commit order, so once a listener has the fence it has every notification
 * committed before it, and any it lacks were never sent.
 */
async function fence(got: (string | undefined)[]): Promise<void> {
  await sql`select pg_notify('esign_jobs', 'fence')`.execute(tdb.db);
  await until(() => got.includes('fence'), 10_000);
}

async function until(check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(20);
  }
}

/** A worker that only polls every 10 s, so anything it runs within ~1 s was woken by a notification. */
async function startListeningWorker(handlers: Record<string, JobHandler>): Promise<WorkerHandle> {
  const worker = startWorker(ctx, handlers, { concurrency: 2, pollMs: 10_000, listenUrl: tdb.url });
  await until(async () => (await listenerPids()).length === 1, 10_000);
  await sleep(200); // both slots have found nothing and are asleep
  return worker;
}

/** Runs `fn` with a connection listening on esign_jobs; `got` collects the payloads it receives. */
async function listening(fn: (got: (string | undefined)[]) => Promise<void>): Promise<void> {
  const listener = new pg.Client({ connectionString: tdb.url });
  const got: (string | undefined)[] = [];
  listener.on('notification', (msg) => got.push(msg.payload));
  await listener.connect();
  try {
    await listener.query('listen esign_jobs');
    await fn(got);
  } finally {
    await listener.end();
  }
}

describe('workers woken by NOTIFY on commit', () => {
  it('enqueueJob notifies esign_jobs with the kind on commit, and not at all on rollback', async () => {
    await listening(async (got) => {
      await tdb.db
        .transaction()
        .execute(async (tx) => {
          await enqueueJob(tx, { kind: 'notify.raw.rolledback' });
          throw new Error('abort');
        })
        .catch(() => {});
      await tdb.db.transaction().execute(async (tx) => {
        await enqueueJob(tx, { kind: 'notify.raw' });
        await enqueueJob(tx, { kind: 'notify.raw' }); // folded into one by PostgreSQL
        await enqueueJob(tx, { kind: 'notify.raw.later', runAt: new Date(Date.now() + 60_000) });
      });
      await fence(got);
      expect(got).toEqual(['notify.raw', 'fence']);
    });
  });

  it('enqueueJobs writes a batch and its wake-up in one statement: the kinds of due jobs written notified once; later, duplicate and unwritten ones not', async () => {
    await listening(async (got) => {
      // A queued job already holds this key: the batch's job with it is not written, and its kind
      // (due only through that job) is not notified.
      await enqueueJob(tdb.db, {
        kind: 'batch.taken',
        uniqueKey: 'batch-taken',
        runAt: new Date(Date.now() + 60_000),
      });
      const { statements } = await recordStatements(() =>
        tdb.db.transaction().execute((tx) =>
          enqueueJobs(tx, [
            { kind: 'batch.due', payload: { n: 1 } },
            { kind: 'batch.due', payload: { n: 2 } },
            { kind: 'batch.once', uniqueKey: 'batch-once' },
            { kind: 'batch.once', uniqueKey: 'batch-once' }, // the same key twice in one batch: one job
            { kind: 'batch.taken', uniqueKey: 'batch-taken' },
            // Written, but for later: its kind is not notified although a due job of it was asked for.
            { kind: 'batch.taken', runAt: new Date(Date.now() + 60_000) },
            { kind: 'batch.later', runAt: new Date(Date.now() + 60_000) },
          ]),
        ),
      );
      expect(statements.filter((s) => s !== 'begin' && s !== 'commit')).toHaveLength(1);
      await fence(got);
      expect(got.sort()).toEqual(['batch.due', 'batch.once', 'fence']);
      const rows = await tdb.db
        .selectFrom('jobs')
        .select(['kind', 'payload'])
        .where('kind', 'like', 'batch.%')
        .orderBy('id')
        .execute();
      expect(rows.map((r) => r.kind)).toEqual([
        'batch.taken',
        'batch.due',
        'batch.due',
        'batch.once',
        'batch.taken',
        'batch.later',
      ]);
      expect(rows.filter((r) => r.kind === 'batch.due').map((r) => r.payload)).toEqual([{ n: 1 }, { n: 2 }]);
      expect(await enqueueJobs(tdb.db, [])).toBeUndefined();
    });
  });

  it('an idle worker with a 10 s poll runs a job committed in a transaction within ~1 s', async () => {
    const ran: number[] = [];
    const worker = await startListeningWorker({ 'notify.commit': async () => void ran.push(Date.now()) });
    try {
      await tdb.db.transaction().execute(async (tx) => {
        await enqueueJob(tx, { kind: 'notify.commit' });
        await sleep(300); // not delivered before commit: the job would not be claimable yet anyway
        expect(ran).toHaveLength(0);
      });
      const committedAt = Date.now();
      await until(() => ran.length === 1, 2_000);
      expect(ran[0]! - committedAt).toBeLessThan(1_000);
      // and once more, to show the wake is not a one-off of start-up
      await enqueueJob(tdb.db, { kind: 'notify.commit' });
      const second = Date.now();
      await until(() => ran.length === 2, 2_000);
      expect(ran[1]! - second).toBeLessThan(1_000);
    } finally {
      await worker.stop();
    }
  });

  it('a job enqueued in a transaction that rolls back is never run (and sends no wake)', async () => {
    const ran: string[] = [];
    const worker = await startListeningWorker({
      'notify.rollback': async () => void ran.push('rollback'),
      'notify.after': async () => void ran.push('after'),
    });
    try {
      await tdb.db
        .transaction()
        .execute(async (tx) => {
          await enqueueJob(tx, { kind: 'notify.rollback' });
          throw new Error('abort');
        })
        .catch(() => {});
      // No row, so nothing any worker could ever run.
      const rows = await tdb.db
        .selectFrom('jobs')
        .where('kind', '=', 'notify.rollback')
        .select('id')
        .execute();
      expect(rows).toHaveLength(0);
      // the worker is awake to the next committed job, and the rolled-back one never shows up
      await enqueueJob(tdb.db, { kind: 'notify.after' });
      await until(() => ran.length === 1, 2_000);
      expect(ran).toEqual(['after']);
    } finally {
      await worker.stop();
    }
  });

  it('stop() closes the listener connection and still lets the running job finish', async () => {
    let started = 0;
    let finished = 0;
    const worker = await startListeningWorker({
      'notify.slow': async () => {
        started++;
        await sleep(300);
        finished++;
      },
    });
    await enqueueJob(tdb.db, { kind: 'notify.slow' });
    await until(() => started === 1, 2_000);
    const t0 = Date.now();
    await worker.stop();
    expect(finished).toBe(1);
    // stop does not wait out the 10 s poll of the idle slot
    expect(Date.now() - t0).toBeLessThan(2_000);
    expect(await listenerPids()).toEqual([]);
  });

  it('a lost listener connection is re-opened; polling covers the gap', async () => {
    const ran: number[] = [];
    const worker = await startListeningWorker({ 'notify.reconnect': async () => void ran.push(Date.now()) });
    try {
      const [pid] = await listenerPids();
      await sql`select pg_terminate_backend(${pid})`.execute(tdb.db);
      // a job committed while nobody listens is picked up on reconnect (first retry after 1 s)
      await enqueueJob(tdb.db, { kind: 'notify.reconnect' });
      await until(() => ran.length === 1, 5_000);
      await until(async () => {
        const pids = await listenerPids(true);
        return pids.length === 1 && pids[0] !== pid;
      }, 5_000);
      await enqueueJob(tdb.db, { kind: 'notify.reconnect' });
      const t = Date.now();
      await until(() => ran.length === 2, 2_000);
      expect(ran[1]! - t).toBeLessThan(1_000);
    } finally {
      await worker.stop();
    }
    expect(await listenerPids()).toEqual([]);
  });
});
