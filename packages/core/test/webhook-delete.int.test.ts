import type { Db } from '@esign/db';
import { createTestDatabase, type TestDatabase } from '@esign/testing/db';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Scope } from '../src/context.ts';
import { jobHandlers } from '../src/jobs.ts';
import { recordEvent } from '../src/services/events.ts';
import { createWebhookEndpoint, WEBHOOK_MAX_ENDPOINTS } from '../src/services/webhooks/endpoints.ts';
import { WEBHOOK_DELIVER_JOB } from '../src/services/webhooks/options.ts';
import { startWebhookWorker } from '../src/services/webhooks/pump.ts';
import { drainJobs } from '../src/services/worker.ts';
import { toCoreError } from '../src/trpc.ts';
import {
  accountWithPassword,
  codeOf,
  dashboardConfig,
  type Harness,
  harness,
  signIn,
} from './dashboard-helpers.ts';
import { testJobContext } from './job-context.ts';
import { type Receiver, type ReplyFn, startReceiver } from './webhook-receiver.ts';

// Deleting a webhook endpoint from the dashboard (webhookEndpoints.delete; docs/webhooks.md,
// Endpoints): admins only, scoped to the session's account side, frees a place under the limit, and
// takes the endpoint's deliveries with it (on delete cascade), so nothing of it is sent afterwards
// by either worker path, and the jobs that wake for those deliveries finish quietly.

const MINUTE = 60_000;
let tdb: TestDatabase;
let db: Db;
let h: Harness;
const clock = { now: new Date() };
const config = dashboardConfig();
const receivers: Receiver[] = [];

beforeAll(async () => {
  tdb = await createTestDatabase();
  db = tdb.db;
  h = harness(db, config, clock);
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await tdb.drop();
});

async function team() {
  const acct = await accountWithPassword(db);
  const member = await acct.addUser('member');
  const viewer = await acct.addUser('viewer');
  const admin = await signIn(h, acct.admin.email, acct.admin.password);
  const asMember = await signIn(h, member.email, member.password);
  const asViewer = await signIn(h, viewer.email, viewer.password);
  return {
    scope: { accountId: acct.accountId, environment: 'live' } as Scope,
    admin: h.caller(admin.browser, admin.actor),
    memberCaller: h.caller(asMember.browser, asMember.actor),
    viewerCaller: h.caller(asViewer.browser, asViewer.actor),
  };
}

async function receiver(reply?: ReplyFn): Promise<Receiver> {
  const r = await startReceiver({
    ...(reply ? { reply } : {}),
    nowSeconds: () => Math.floor(clock.now.getTime() / 1000),
  });
  receivers.push(r);
  return r;
}

type Team = Awaited<ReturnType<typeof team>>;

/** An endpoint of the team's live side on `r`, subscribed to signer.signed. */
async function endpointOn(t: Team, r: Receiver) {
  const { endpoint, secret } = await t.admin.webhookEndpoints.create({
    url: r.url,
    events: ['signer.signed'],
  });
  r.secret = secret;
  return endpoint;
}

/** Commits a signer.signed event of the team's live side (about an endpoint row: a real object). */
function emit(t: Team, objectId: number) {
  return db.transaction().execute((tx) =>
    recordEvent(tx, t.scope, {
      type: 'signer.signed',
      objectType: 'webhook_endpoint',
      objectId,
      now: clock.now,
    }),
  );
}

const handlers = { [WEBHOOK_DELIVER_JOB]: jobHandlers[WEBHOOK_DELIVER_JOB]! };
const jobContext = () => testJobContext(db, config, () => clock.now);
const drain = () => drainJobs(jobContext(), handlers);

const deliveryIdsOf = async (endpointId: number) =>
  (
    await db.selectFrom('webhook_deliveries').select('id').where('endpoint_id', '=', endpointId).execute()
  ).map((d) => d.id);

/** The `webhook.deliver` jobs that wake these deliveries, with their state. */
const jobsOf = (deliveryIds: number[]) =>
  db
    .selectFrom('jobs')
    .select(['status', 'last_error'])
    .where('kind', '=', WEBHOOK_DELIVER_JOB)
    .where(sql<number>`(payload->>'deliveryId')::integer`, 'in', deliveryIds)
    .execute();

/**
 * Two endpoints on two receivers: `gone` (always answers 500) and `kept` (200). Two events: the
 * first attempted once (gone's delivery now waits for its retry), the second not yet attempted.
 */
async function retryingAndPending() {
  const t = await team();
  const failing = await receiver(() => 500);
  const ok = await receiver();
  const gone = await endpointOn(t, failing);
  const kept = await endpointOn(t, ok);
  await emit(t, kept.id);
  await drain();
  expect(failing.requests).toHaveLength(1);
  await emit(t, kept.id);
  const goneDeliveries = await deliveryIdsOf(gone.id);
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select(['status', 'attempts'])
    .where('id', 'in', goneDeliveries)
    .orderBy('id')
    .execute();
  expect(rows).toEqual([
    { status: 'pending', attempts: 1 },
    { status: 'pending', attempts: 0 },
  ]);
  return { t, failing, ok, gone, kept, goneDeliveries };
}

describe('webhookEndpoints.delete: an admin deletes an endpoint of the session side', () => {
  it('the endpoint leaves the list and get is 404; its delivery records and attempts are deleted with it (cascade), the events and other endpoints stay', async () => {
    const { t, gone, kept, goneDeliveries } = await retryingAndPending();
    const eventsBefore = await db
      .selectFrom('webhook_events')
      .select('id')
      .where('account_id', '=', t.scope.accountId)
      .execute();
    expect(await t.admin.webhookEndpoints.delete({ id: gone.id })).toEqual({
      id: gone.id,
      url: gone.url,
      deleted: true,
    });
    expect((await t.admin.webhookEndpoints.list()).endpoints.map((e) => e.id)).toEqual([kept.id]);
    expect(await codeOf(t.admin.webhookEndpoints.get({ id: gone.id }))).toBe('not_found');
    expect(await codeOf(t.admin.webhookEndpoints.delete({ id: gone.id }))).toBe('not_found');
    expect(await deliveryIdsOf(gone.id)).toEqual([]);
    const attempts = await db
      .selectFrom('webhook_attempts')
      .select('id')
      .where('delivery_id', 'in', goneDeliveries)
      .execute();
    expect(attempts).toEqual([]);
    // The delivery log: filtered by the deleted endpoint is 404 (the dashboard drops that filter);
    // unfiltered it shows the other endpoint's deliveries only.
    expect(await codeOf(t.admin.webhookEndpoints.deliveries({ endpoint_id: gone.id }))).toBe('not_found');
    const log = await t.admin.webhookEndpoints.deliveries({});
    expect(log.data.map((d) => d.endpoint_id)).toEqual([kept.id, kept.id]);
    expect(await codeOf(t.admin.webhookEndpoints.retryDelivery({ id: goneDeliveries[0]! }))).toBe(
      'not_found',
    );
    const eventsAfter = await db
      .selectFrom('webhook_events')
      .select('id')
      .where('account_id', '=', t.scope.accountId)
      .execute();
    expect(eventsAfter).toEqual(eventsBefore);
  });

  it('pending and retrying deliveries of a deleted endpoint are never sent: the job that wakes for one finds no delivery and finishes (job handler path)', async () => {
    const { t, failing, ok, gone, goneDeliveries } = await retryingAndPending();
    await t.admin.webhookEndpoints.delete({ id: gone.id });
    clock.now = new Date(clock.now.getTime() + 30 * MINUTE);
    await drain();
    expect(failing.requests).toHaveLength(1);
    expect(ok.requests).toHaveLength(2);
    // Each wake-up ran once and is done: no crash, no retry on the job queue's schedule.
    const jobs = await jobsOf(goneDeliveries);
    expect(jobs.length).toBeGreaterThanOrEqual(2);
    expect(jobs.every((j) => j.status === 'done' && j.last_error === null)).toBe(true);
    clock.now = new Date(clock.now.getTime() + 24 * 60 * MINUTE);
    expect(await drain()).toBe(0);
    expect(failing.requests).toHaveLength(1);
  });

  it('pending and retrying deliveries of a deleted endpoint are never sent by the batched webhook worker either; its wake-ups finish', async () => {
    const { t, failing, ok, gone, goneDeliveries } = await retryingAndPending();
    await t.admin.webhookEndpoints.delete({ id: gone.id });
    clock.now = new Date(clock.now.getTime() + 30 * MINUTE);
    const worker = startWebhookWorker(jobContext(), {
      handler: handlers[WEBHOOK_DELIVER_JOB],
      concurrency: 4,
      pollMs: 10,
    });
    try {
      await ok.waitFor(2, 20_000);
      const deadline = Date.now() + 20_000;
      while ((await jobsOf(goneDeliveries)).some((j) => j.status !== 'done')) {
        if (Date.now() > deadline) throw new Error('the wake-ups of the deleted deliveries did not finish');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      await worker.stop();
    }
    expect(failing.requests).toHaveLength(1);
    expect((await jobsOf(goneDeliveries)).every((j) => j.last_error === null)).toBe(true);
  });

  it('an attempt in flight when its endpoint is deleted records nothing and queues no retry (its outcome is dropped quietly)', async () => {
    const t = await team();
    let deleted: unknown = null;
    let endpointId = 0;
    const r = await receiver(async () => {
      deleted = await t.admin.webhookEndpoints.delete({ id: endpointId });
      return 500;
    });
    endpointId = (await endpointOn(t, r)).id;
    await emit(t, endpointId);
    const [deliveryId] = await deliveryIdsOf(endpointId);
    await drain();
    expect(deleted).toMatchObject({ id: endpointId, deleted: true });
    expect(r.requests).toHaveLength(1);
    expect(await deliveryIdsOf(endpointId)).toEqual([]);
    const jobs = await jobsOf([deliveryId!]);
    expect(jobs).toEqual([{ status: 'done', last_error: null }]);
    clock.now = new Date(clock.now.getTime() + 30 * MINUTE);
    await drain();
    expect(r.requests).toHaveLength(1);
  });
});

describe('webhookEndpoints.delete: who and which', () => {
  it("another account's endpoint, or the other side's (test) of the same account, is 404 not_found and stays", async () => {
    const t = await team();
    const other = await team();
    const { endpoint: theirs } = await other.admin.webhookEndpoints.create({
      url: 'http://127.0.0.1:9/hook',
    });
    expect(await codeOf(t.admin.webhookEndpoints.delete({ id: theirs.id }))).toBe('not_found');
    expect(await other.admin.webhookEndpoints.get({ id: theirs.id })).toMatchObject({ id: theirs.id });
    const { endpoint: testSide } = await createWebhookEndpoint(
      db,
      { ...t.scope, environment: 'test' },
      { input: { url: 'http://127.0.0.1:9/test-side' }, config, now: () => clock.now },
    );
    expect(await codeOf(t.admin.webhookEndpoints.delete({ id: testSide.id }))).toBe('not_found');
    expect(
      await db.selectFrom('webhook_endpoints').select('id').where('id', '=', testSide.id).execute(),
    ).toEqual([{ id: testSide.id }]);
  });

  it('a viewer and a member may not delete an endpoint (403 forbidden, as for update); it stays', async () => {
    const t = await team();
    const { endpoint } = await t.admin.webhookEndpoints.create({ url: 'http://127.0.0.1:9/hook' });
    for (const c of [t.viewerCaller, t.memberCaller]) {
      expect(await codeOf(c.webhookEndpoints.update({ id: endpoint.id, enabled: false }))).toBe('forbidden');
      expect(await codeOf(c.webhookEndpoints.delete({ id: endpoint.id }))).toBe('forbidden');
    }
    expect(await t.admin.webhookEndpoints.get({ id: endpoint.id })).toMatchObject({ id: endpoint.id });
  });

  it(`deleting frees a place under the limit: with ${WEBHOOK_MAX_ENDPOINTS} endpoints, delete one and another can be created; one more still fails with 422 invalid_request`, async () => {
    const t = await team();
    const create = () => t.admin.webhookEndpoints.create({ url: 'http://127.0.0.1:9/hook' });
    const ids: number[] = [];
    for (let i = 0; i < WEBHOOK_MAX_ENDPOINTS; i++) ids.push((await create()).endpoint.id);
    const full = async () => {
      const err = await create().then(
        () => null,
        (e: unknown) => toCoreError(e),
      );
      expect(err).toMatchObject({
        code: 'invalid_request',
        status: 422,
        message: expect.stringContaining(`at most ${WEBHOOK_MAX_ENDPOINTS} webhook endpoints`),
      });
    };
    await full();
    await t.admin.webhookEndpoints.delete({ id: ids[7]! });
    await expect(create()).resolves.toMatchObject({ endpoint: { url: 'http://127.0.0.1:9/hook' } });
    await full();
    expect((await t.admin.webhookEndpoints.list()).endpoints).toHaveLength(WEBHOOK_MAX_ENDPOINTS);
  }, 60_000);
});
