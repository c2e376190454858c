import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '@esign/core';
import { startWorker } from '@esign/core/jobs';
import { createAccount, createWebhookEndpoint } from '@esign/core/operator';
import {
  enqueueJob,
  getWebhookDelivery,
  JOB_LEASE_MS,
  type JobContext,
  recordEvent,
  runOneJob,
} from '@esign/core/testing';
import { createDb } from '@esign/db';
import { createTestDatabase, type TestDatabase } from '@esign/testing/db';
import { type AppProcess, sleep, spawnApp, terminateBackends, until } from '@esign/testing/processes';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testJobContext } from '../../../packages/core/test/job-context.ts';
import { type Receiver, startReceiver } from '../../../packages/core/test/webhook-receiver.ts';

// Issue 9, item 5: a dead worker's jobs are resumed within the lease (30 s), not after 5 minutes.
// Leases are short and renewed while the work runs, so a live worker keeps a long job and a dead
// one's job is taken over as soon as its last renewal runs out.

const env = {
  SECRET_KEY: 'worker-lease-test-server-secret-0123456789',
  DATA_DIR: mkdtempSync(join(tmpdir(), 'esign-worker-lease-')),
  WEBHOOK_ALLOW_PRIVATE: 'true',
};

let tdb: TestDatabase;
let ctx: JobContext;
beforeAll(async () => {
  tdb = await createTestDatabase();
  const config = parseConfig({ ...env, DATABASE_URL: tdb.url });
  ctx = testJobContext(tdb.db, config);
});
afterAll(() => tdb.drop());

describe('short, renewed job leases (issue 9.5)', () => {
  let receiver: Receiver | undefined;
  const workers: AppProcess[] = [];
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await receiver?.close();
  });

  it('a worker SIGKILLed mid-delivery: another running worker sends the event again within the lease (not 5 minutes), same event id, and the receiver gets it exactly twice', {
    timeout: 120_000,
  }, async () => {
    receiver = await startReceiver({ reply: (_q, i) => (i === 0 ? 'hang' : 200) });
    const { account } = await tdb.db
      .transaction()
      .execute((tx) => createAccount(tx, { email: 'lease@example.com' }, new Date()));
    const scope = { accountId: account.id, environment: 'live' as const };
    const { endpoint, secret } = await createWebhookEndpoint(tdb.db, scope, {
      input: { url: receiver.url, events: ['signer.signed'] },
      config: ctx.config,
      now: ctx.now,
    });
    receiver.secret = secret;
    // Two workers of one deployment; either may take the job.
    for (let i = 0; i < 2; i++)
      workers.push(await spawnApp('worker', { ...env, DATABASE_URL: tdb.url, WORKER_CONCURRENCY: '1' }));
    const event = await tdb.db.transaction().execute((tx) =>
      recordEvent(tx, scope, {
        type: 'signer.signed',
        objectType: 'webhook_endpoint',
        objectId: endpoint.id,
        now: new Date(),
      }),
    );
    await receiver.waitFor(1, 60_000);

    // Kill whichever worker holds the job (its pid is in locked_by) while its request hangs.
    const job = await tdb.db
      .selectFrom('jobs')
      .selectAll()
      .where('kind', '=', 'webhook.deliver')
      .where('status', '=', 'running')
      .executeTakeFirstOrThrow();
    const holder = workers.find((w) => job.locked_by?.includes(`:${w.child.pid}:`));
    expect(holder, `job held by ${job.locked_by}`).toBeDefined();
    const killedAt = Date.now();
    holder!.child.kill('SIGKILL');

    await receiver.waitFor(2, JOB_LEASE_MS + 30_000);
    const resumedMs = Date.now() - killedAt;
    // Within the lease plus a poll and a wake-up, with room for a loaded machine.
    expect(resumedMs).toBeLessThan(JOB_LEASE_MS + 15_000);
    const [lost, retried] = receiver.requests;
    expect(retried!.json.id).toBe(event.id);
    expect(lost!.json.id).toBe(event.id);
    expect(retried!.verified).toBe(true);
    const delivery = await tdb.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('event_id', '=', event.id)
      .executeTakeFirstOrThrow();
    await until(
      'delivery recorded as succeeded',
      async () => (await getWebhookDelivery(tdb.db, scope, delivery.id)).status === 'succeeded',
      10_000,
    );
    const record = await getWebhookDelivery(tdb.db, scope, delivery.id);
    expect(record).toMatchObject({ status: 'succeeded', attempt_count: 2 });
    expect(record.attempts.map((a) => a.error_code ?? null)).toEqual(['abandoned', null]);
    // The at-least-once window only: the request in flight when the worker died, and its retry.
    await sleep(1_000);
    expect(receiver.requests).toHaveLength(2);
  });
});

describe('the lease of a running job (issue 9.5)', () => {
  it('is renewed while the job runs: a job running for several lease periods is not taken by another worker and runs once', async () => {
    const leaseMs = 600;
    let runs = 0;
    let release!: () => void;
    const handlers = {
      'lease.long': async () => {
        runs++;
        await new Promise<void>((r) => (release = r));
      },
    };
    await enqueueJob(tdb.db, { kind: 'lease.long' });
    const worker = startWorker(ctx, handlers, { concurrency: 1, pollMs: 50, leaseMs });
    try {
      await until('job started', () => runs === 1, 10_000);
      // Another worker polls throughout four lease periods and never gets the job.
      const stealUntil = Date.now() + 4 * leaseMs;
      while (Date.now() < stealUntil) {
        expect(await runOneJob(ctx, handlers, { workerId: 'thief', leaseMs })).toBe(false);
        await sleep(50);
      }
      release();
      await until(
        'job done',
        async () =>
          (
            await tdb.db
              .selectFrom('jobs')
              .select('status')
              .where('kind', '=', 'lease.long')
              .executeTakeFirst()
          )?.status === 'done',
        10_000,
      );
      expect(runs).toBe(1);
    } finally {
      release?.();
      await worker.stop();
    }
  });

  it('the worker loop survives its connections being terminated (claims, renewals and finishes that fail): every job is done afterwards', {
    timeout: 60_000,
  }, async () => {
    const appName = 'esign-lease-test-worker';
    const db = createDb(tdb.url, { max: 4, applicationName: appName });
    const ran = new Set<number>();
    const handlers = {
      'lease.storm': async (_c: JobContext, p: Record<string, unknown>) => {
        await sleep(30);
        ran.add(Number(p.i));
      },
    };
    for (let i = 0; i < 40; i++) await enqueueJob(tdb.db, { kind: 'lease.storm', payload: { i } });
    const worker = startWorker({ ...ctx, db }, handlers, { concurrency: 3, pollMs: 50, leaseMs: 1_000 });
    try {
      let terminated = 0;
      for (let i = 0; i < 20; i++) {
        terminated += await terminateBackends(tdb.url, [appName]);
        await sleep(60);
      }
      expect(terminated).toBeGreaterThan(5);
      await until(
        'every job done',
        async () => {
          const { rows } = await sql<{ n: number }>`
            select count(*)::int as n from jobs where kind = 'lease.storm' and status <> 'done'`.execute(
            tdb.db,
          );
          return rows[0]!.n === 0;
        },
        30_000,
      );
      expect(ran.size).toBe(40);
    } finally {
      await worker.stop();
      await db.destroy();
    }
  });
});
