import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db } from '@esign/db';
import { createTestDatabase, type TestDatabase } from '@esign/testing/db';
import { closeOutboundConnections, retrySchedule } from '@esign/webhooks';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Config, parseConfig } from '../src/config.ts';
import type { Scope } from '../src/context.ts';
import { jobHandlers } from '../src/jobs.ts';
import { createAccount } from '../src/services/accounts.ts';
import { recordEvent } from '../src/services/events.ts';
import { enqueueJob } from '../src/services/jobs.ts';
import { claimDeliveryBatch } from '../src/services/webhooks/batch.ts';
import { createWebhookEndpoint, disableWebhookEndpoint } from '../src/services/webhooks/endpoints.ts';
import { WEBHOOK_DELIVER_JOB } from '../src/services/webhooks/options.ts';
import { startWebhookWorker } from '../src/services/webhooks/pump.ts';
import { getWebhookDelivery } from '../src/services/webhooks/records.ts';
import { startWorker, type WorkerHandle } from '../src/services/worker.ts';
import { testJobContext } from './job-context.ts';
import { type Receiver, type ReplyFn, startReceiver } from './webhook-receiver.ts';

// Issue 16: the worker claims `webhook.deliver` jobs and their deliveries many at a time and records
// many outcomes per statement. The rules stay those of docs/webhooks.md (How deliveries are made):
// one attempt holds a delivery at a time, nothing is lost when a worker dies, the back-off and the
// delivery log are the same as one at a time.

const MINUTE = 60_000;
const LEASES = { jobMs: 30_000, deliveryMs: 30_000 };
let tdb: TestDatabase;
let db: Db;
const receivers: Receiver[] = [];
const config: Config = parseConfig({
  DATA_DIR: mkdtempSync(join(tmpdir(), 'esign-webhook-batch-')),
  SECRET_KEY: 'webhook-batch-test-server-secret-0123456789',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  LOG_LEVEL: 'silent',
});

beforeAll(async () => {
  tdb = await createTestDatabase();
  db = tdb.db;
});
afterAll(async () => {
  await closeOutboundConnections();
  await Promise.all(receivers.map((r) => r.close()));
  await tdb.drop();
});

let accounts = 0;
/** A fresh account with an endpoint on a new loopback receiver; `emit(n)` commits n events at `at`. */
async function setup(reply?: ReplyFn, clock?: { now: Date }) {
  accounts += 1;
  const { account } = await db
    .transaction()
    .execute((tx) => createAccount(tx, { email: `batch${accounts}@example.com` }, new Date()));
  const scope: Scope = { accountId: account.id, environment: 'live' };
  const r = await startReceiver({
    ...(reply ? { reply } : {}),
    nowSeconds: () => Math.floor((clock?.now ?? new Date()).getTime() / 1000),
  });
  receivers.push(r);
  const { endpoint, secret } = await createWebhookEndpoint(db, scope, {
    input: { url: r.url, events: ['signer.signed'] },
    config,
    now: () => new Date(),
  });
  r.secret = secret;
  const emit = async (n: number, at = clock?.now ?? new Date()) => {
    const ids: string[] = [];
    await db.transaction().execute(async (tx) => {
      for (let i = 0; i < n; i++) {
        const event = await recordEvent(tx, scope, {
          type: 'signer.signed',
          objectType: 'webhook_endpoint',
          objectId: endpoint.id,
          now: at,
        });
        ids.push(event.id);
      }
    });
    return ids;
  };
  return { scope, r, endpoint, emit };
}

async function deliveryOf(eventId: string) {
  return db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('event_id', '=', eventId)
    .executeTakeFirstOrThrow();
}

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const handler = jobHandlers[WEBHOOK_DELIVER_JOB]!;

describe('batch claim (issue 16: one statement for many due jobs, FOR UPDATE SKIP LOCKED)', () => {
  it('two workers claiming at once from one backlog get disjoint jobs and deliveries, and every one of them', async () => {
    const { emit } = await setup();
    const ids = await emit(120);
    const now = new Date();
    const [a, b] = await Promise.all([
      claimDeliveryBatch(db, { workerId: 'worker-a', limit: 80, now, leases: LEASES }),
      claimDeliveryBatch(db, { workerId: 'worker-b', limit: 80, now, leases: LEASES }),
    ]);
    const jobIds = [...a, ...b].map((i) => i.job.id);
    expect(new Set(jobIds).size).toBe(120);
    const claimed = [...a, ...b].map((i) => i.delivery!.eventId);
    expect(new Set(claimed)).toEqual(new Set(ids));
    // Each claim wrote its lease and its attempt row, under the claim's own delivery UUID.
    const attempts = await sql<{ n: number }>`
      select count(*)::int as n from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
      where d.locked_by = a.delivery_uuid and a.attempt = 1 and a.duration_ms is null`.execute(db);
    expect(attempts.rows[0]!.n).toBe(120);
    expect(await claimDeliveryBatch(db, { workerId: 'worker-c', limit: 80, now, leases: LEASES })).toEqual(
      [],
    );
  });

  it('two wake-ups of one delivery in one batch: one attempt; the other job finds the delivery held', async () => {
    const { emit } = await setup();
    const [eventId] = await emit(1);
    const delivery = await deliveryOf(eventId!);
    await enqueueJob(db, { kind: WEBHOOK_DELIVER_JOB, payload: { deliveryId: delivery.id } });
    const items = await claimDeliveryBatch(db, {
      workerId: 'worker-a',
      limit: 10,
      now: new Date(),
      leases: LEASES,
    });
    expect(items).toHaveLength(2);
    expect(items.filter((i) => i.delivery)).toHaveLength(1);
    const held = await deliveryOf(eventId!);
    expect(held.attempts).toBe(1);
  });

  it('duplicate wake-ups split across two batches claimed at once: no deadlock, each delivery claimed once', async () => {
    const { emit } = await setup();
    for (let round = 0; round < 5; round++) {
      const ids = await emit(40);
      const deliveries = await db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('event_id', 'in', ids)
        .orderBy('id', 'desc')
        .execute();
      // A second wake-up of every delivery, queued in the opposite order.
      for (const d of deliveries)
        await enqueueJob(db, { kind: WEBHOOK_DELIVER_JOB, payload: { deliveryId: d.id } });
      const now = new Date();
      const [a, b] = await Promise.all([
        claimDeliveryBatch(db, { workerId: 'worker-a', limit: 45, now, leases: LEASES }),
        claimDeliveryBatch(db, { workerId: 'worker-b', limit: 45, now, leases: LEASES }),
      ]);
      expect(a.length + b.length).toBe(80);
      const claimed = [...a, ...b].flatMap((i) => (i.delivery ? [i.delivery.id] : []));
      expect(claimed.sort()).toEqual(deliveries.map((d) => d.id).sort());
    }
  });

  it('a delivery held by an attempt, one whose worker died, or one not yet due is left to the job handler', async () => {
    const { emit } = await setup();
    const [held, dead, later] = await emit(3);
    const now = new Date();
    for (const [eventId, set] of [
      [held, { attempts: 1, locked_by: crypto.randomUUID(), locked_until: new Date(now.getTime() + MINUTE) }],
      [dead, { attempts: 1, locked_by: crypto.randomUUID(), locked_until: new Date(now.getTime() - 1) }],
      [later, { attempts: 1, next_attempt_at: new Date(now.getTime() + MINUTE) }],
    ] as const)
      await db.updateTable('webhook_deliveries').set(set).where('event_id', '=', eventId!).execute();
    const items = await claimDeliveryBatch(db, { workerId: 'worker-a', limit: 10, now, leases: LEASES });
    expect(items).toHaveLength(3);
    expect(items.every((i) => i.delivery === null)).toBe(true);
  });
});

describe('the batch worker (issue 16: at least once, no duplicates, nothing lost)', () => {
  it('two batch workers and a one-job-at-a-time worker racing on 300 events: each received once; every delivery and job done', async () => {
    const { r, emit } = await setup();
    const ids = await emit(300);
    const ctx = testJobContext(db, config);
    const workers: WorkerHandle[] = [
      startWebhookWorker(ctx, { handler, concurrency: 32, pollMs: 20, listenUrl: tdb.url }),
      startWebhookWorker(ctx, { handler, concurrency: 8, pollMs: 20, listenUrl: tdb.url }),
      startWorker(ctx, { [WEBHOOK_DELIVER_JOB]: handler }, { concurrency: 4, pollMs: 20 }),
    ];
    try {
      await r.waitFor(300, 60_000);
      await new Promise((resolve) => setTimeout(resolve, 300)); // time for a duplicate to show up
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }
    expect(r.requests.map((q) => q.json.id).sort()).toEqual([...ids].sort());
    expect(r.requests.every((q) => q.verified)).toBe(true);
    const rows = await sql<{ status: string; attempts: number; n: number }>`
      select d.status, d.attempts, count(*)::int as n from webhook_deliveries d
      join webhook_events e on e.id = d.event_id where e.id = any(${ids}::uuid[]) group by 1, 2`.execute(db);
    expect(rows.rows).toEqual([{ status: 'succeeded', attempts: 1, n: 300 }]);
    const open = await sql<{ n: number }>`
      select count(*)::int as n from jobs j join webhook_deliveries d on d.id = (j.payload->>'deliveryId')::int
      where j.kind = ${WEBHOOK_DELIVER_JOB} and j.status <> 'done' and d.event_id = any(${ids}::uuid[])`.execute(
      db,
    );
    expect(open.rows[0]!.n).toBe(0);
  }, 90_000);

  it('a worker that dies holding a claimed batch loses nothing: after the lease each event is sent, the lost attempt on record as abandoned', async () => {
    const clock = { now: new Date() };
    const { r, scope, emit } = await setup(undefined, clock);
    const ids = await emit(40);
    // The dying worker: it claimed the batch (leases taken, attempts recorded as started) and stopped.
    const dying = await claimDeliveryBatch(db, {
      workerId: 'dying-worker',
      limit: 100,
      now: clock.now,
      leases: LEASES,
    });
    expect(dying.filter((i) => i.delivery)).toHaveLength(40);
    const ctx = testJobContext(db, config, () => clock.now);
    const survivor = startWebhookWorker(ctx, { handler, concurrency: 16, pollMs: 20 });
    try {
      // While the leases hold, nobody sends.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(r.requests).toHaveLength(0);
      clock.now = new Date(clock.now.getTime() + 6 * MINUTE);
      await r.waitFor(40, 30_000);
      await waitUntil(async () => (await deliveryOf(ids.at(-1)!)).status === 'succeeded');
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      await survivor.stop();
    }
    expect(r.requests.map((q) => q.json.id).sort()).toEqual([...ids].sort());
    for (const id of ids) {
      const record = await getWebhookDelivery(db, scope, (await deliveryOf(id)).id);
      expect(record).toMatchObject({ status: 'succeeded', attempt_count: 2 });
      expect(record.attempts).toMatchObject([
        { attempt: 1, error_code: 'abandoned', duration_ms: null },
        { attempt: 2, status_code: 200, error: null },
      ]);
    }
  }, 60_000);

  it('batch recording of failed attempts keeps the back-off: 1, 2, 4 ... 256 minutes, then failed; each attempt in the log', async () => {
    const clock = { now: new Date('2031-01-01T00:00:00Z') };
    const { r, scope, emit } = await setup(() => ({ status: 503, body: 'busy' }), clock);
    const ids = await emit(3);
    const ctx = testJobContext(db, config, () => clock.now);
    const worker = startWebhookWorker(ctx, { handler, concurrency: 8, pollMs: 10 });
    const start = clock.now.getTime();
    const delays = retrySchedule(config.WEBHOOK_RETRY_BASE_SECONDS);
    try {
      let at = start;
      for (let attempt = 1; attempt <= 10; attempt++) {
        await r.waitFor(3 * attempt, 20_000);
        await waitUntil(async () => {
          const rows = await Promise.all(ids.map(deliveryOf));
          return rows.every((d) => d.attempts === attempt && d.locked_by === null);
        });
        for (const id of ids) {
          const d = await deliveryOf(id);
          const next = attempt < 10 ? new Date(at + delays[attempt - 1]! * 1000) : null;
          expect(d).toMatchObject({ status: attempt < 10 ? 'pending' : 'failed', next_attempt_at: next });
          const job = await db
            .selectFrom('jobs')
            .select(['run_at', 'status'])
            .where('unique_key', '=', `${WEBHOOK_DELIVER_JOB}:${d.id}:${attempt + 1}`)
            .executeTakeFirst();
          expect(job ?? null).toEqual(next ? { run_at: next, status: 'queued' } : null);
        }
        if (attempt < 10) {
          // One second early: not due, nothing is sent.
          clock.now = new Date(at + delays[attempt - 1]! * 1000 - 1000);
          await new Promise((resolve) => setTimeout(resolve, 100));
          expect(r.requests).toHaveLength(3 * attempt);
          at += delays[attempt - 1]! * 1000;
          clock.now = new Date(at);
        }
      }
    } finally {
      await worker.stop();
    }
    expect(r.requests).toHaveLength(30);
    const record = await getWebhookDelivery(db, scope, (await deliveryOf(ids[0]!)).id);
    expect(record).toMatchObject({ status: 'failed', attempt_count: 10, last_status_code: 503 });
    expect(record.attempts).toHaveLength(10);
    expect(
      record.attempts.every((a) => a.error_code === 'http_status' && a.response_excerpt === 'busy'),
    ).toBe(true);
    expect(new Set(record.attempts.map((a) => a.id)).size).toBe(10);
  }, 120_000);

  it('data at delivery time in a batch: the object now, or when it is gone the last data sent for it, or a reference', async () => {
    const { r, scope, endpoint } = await setup();
    const other = await createWebhookEndpoint(db, scope, {
      input: { url: 'http://127.0.0.1:9/other', events: ['template.created'] },
      config,
      now: () => new Date(),
    });
    const about = (objectId: number) =>
      db.transaction().execute((tx) =>
        recordEvent(tx, scope, {
          type: 'signer.signed',
          objectType: 'webhook_endpoint',
          objectId,
          now: new Date(),
        }),
      );
    const ctx = testJobContext(db, config);
    const run = async (n: number) => {
      const worker = startWebhookWorker(ctx, { handler, concurrency: 8, pollMs: 20 });
      try {
        await r.waitFor(n, 20_000);
      } finally {
        await worker.stop();
      }
    };
    const first = await about(other.endpoint.id);
    await run(1);
    const live = r.requests[0]!.json.data;
    expect(live).toMatchObject({
      object: 'webhook_endpoint',
      id: other.endpoint.id,
      url: 'http://127.0.0.1:9/other',
    });
    const stored = await db
      .selectFrom('webhook_events')
      .select('data')
      .where('id', '=', first.id)
      .executeTakeFirst();
    expect(stored?.data).toEqual(live);

    await db.deleteFrom('webhook_endpoints').where('id', '=', other.endpoint.id).execute();
    const gone = await about(other.endpoint.id);
    const never = await about(987_654);
    const current = await about(endpoint.id);
    await run(4);
    const byId = new Map(r.requests.map((q) => [q.json.id, q.json.data]));
    expect(byId.get(gone.id)).toEqual(live);
    expect(byId.get(never.id)).toEqual({ object: 'webhook_endpoint', id: 987_654 });
    expect(byId.get(current.id)).toMatchObject({ object: 'webhook_endpoint', id: endpoint.id, url: r.url });
  });

  it('an attempt longer than its lease keeps it while its worker lives: a second worker sends nothing twice', async () => {
    const { r, emit } = await setup(() => new Promise((resolve) => setTimeout(() => resolve(200), 1_200)));
    const ids = await emit(6);
    const ctx = testJobContext(db, config);
    const workers = [1, 2].map(() =>
      startWebhookWorker(ctx, { handler, concurrency: 4, pollMs: 20, leaseMs: 300 }),
    );
    try {
      await r.waitFor(6, 20_000);
      await waitUntil(async () =>
        (await Promise.all(ids.map(deliveryOf))).every((d) => d.status === 'succeeded'),
      );
      await new Promise((resolve) => setTimeout(resolve, 800));
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }
    expect(r.requests.map((q) => q.json.id).sort()).toEqual([...ids].sort());
    for (const id of ids) expect(await deliveryOf(id)).toMatchObject({ status: 'succeeded', attempts: 1 });
  }, 30_000);

  it('a delivery to a disabled endpoint is left to the job handler, which marks it failed without sending', async () => {
    const { r, scope, endpoint, emit } = await setup();
    const [eventId] = await emit(1);
    await disableWebhookEndpoint(db, scope, { id: endpoint.id, now: new Date() });
    const worker = startWebhookWorker(testJobContext(db, config), { handler, concurrency: 4, pollMs: 20 });
    try {
      await waitUntil(async () => (await deliveryOf(eventId!)).status === 'failed');
    } finally {
      await worker.stop();
    }
    expect(r.requests).toHaveLength(0);
    expect(await deliveryOf(eventId!)).toMatchObject({
      attempts: 0,
      last_error: 'The endpoint was disabled before this event was delivered',
    });
  });
});
