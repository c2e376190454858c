import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db, Environment } from '@esign/db';
import { createTestDatabase, type TestDatabase } from '@esign/testing/db';
import type { ResolveHost } from '@esign/webhooks';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Config, parseConfig } from '../src/config.ts';
import type { Scope } from '../src/context.ts';
import { jobHandlers } from '../src/jobs.ts';
import { createAccount } from '../src/services/accounts.ts';
import { type EventType, recordEvent } from '../src/services/events.ts';
import { claimJob, enqueueJob, type JobContext } from '../src/services/jobs.ts';
import {
  attemptWebhookDelivery,
  createWebhookDeliverJob,
  sendTestWebhook,
} from '../src/services/webhooks/delivery.ts';
import {
  createWebhookEndpoint,
  disableWebhookEndpoint,
  getWebhookEndpoint,
  updateWebhookEndpoint,
  WEBHOOK_MAX_ENDPOINTS,
} from '../src/services/webhooks/endpoints.ts';
import { WEBHOOK_DELIVER_JOB, webhookLeaseMs } from '../src/services/webhooks/options.ts';
import { getWebhookDelivery, listWebhookDeliveries } from '../src/services/webhooks/records.ts';
import { drainJobs, runOneJob } from '../src/services/worker.ts';
import { testJobContext } from './job-context.ts';
import { type Receiver, type ReplyFn, startReceiver } from './webhook-receiver.ts';

// Webhooks end to end on a real PostgreSQL: fan-out in the event's transaction, the delivery job,
// retries on the spec's back-off, the address rules at save and at delivery, concurrency.
// Until the signature request and signer modules register their builders, subscribable events
// here are recorded about an endpoint row (a real object with a registered `data` builder).

const SECRET_KEY = 'webhook-tests-server-secret-0123456789abcdef';
const dataDir = mkdtempSync(join(tmpdir(), 'esign-webhook-test-'));
const MINUTE = 60_000;

function configWith(env: Record<string, string> = {}): Config {
  return parseConfig({
    DATA_DIR: dataDir,
    SECRET_KEY,
    LOG_LEVEL: 'silent',
    WEBHOOK_ALLOW_PRIVATE: 'true',
    ...env,
  });
}

/** No test ever asks the real resolver; names resolve only to what a test says. */
const noDns: ResolveHost = async (host) => {
  throw new Error(`no DNS in tests (${host})`);
};
const resolvesTo =
  (address: string): ResolveHost =>
  async () => [address];

let tdb: TestDatabase;
let db: Db;
const clock = { now: new Date('2030-01-01T00:00:00Z') };
const receivers: Receiver[] = [];

beforeAll(async () => {
  tdb = await createTestDatabase();
  db = tdb.db;
});
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
  await tdb.drop();
});

function jobContext(config: Config, now: () => Date = () => clock.now): JobContext {
  return testJobContext(db, config, now);
}

const handlers = (lookup: ResolveHost = noDns) => ({
  [WEBHOOK_DELIVER_JOB]: createWebhookDeliverJob({ lookup }),
});

/** Runs every due job at the test clock. */
const drain = (config: Config, lookup?: ResolveHost) => drainJobs(jobContext(config), handlers(lookup));

const webhookOptions = (config: Config, lookup: ResolveHost = noDns) => ({
  config,
  now: () => clock.now,
  lookup,
});

let accounts = 0;
async function newScope(environment: Environment = 'live'): Promise<Scope & { userId: number }> {
  accounts += 1;
  const { account, user } = await db
    .transaction()
    .execute((tx) =>
      createAccount(
        tx,
        { email: `hooks${accounts}-${Math.random().toString(36).slice(2, 8)}@example.com` },
        new Date(),
      ),
    );
  return { accountId: account.id, environment, userId: user.id };
}

async function receiver(reply?: ReplyFn): Promise<Receiver> {
  const r = await startReceiver({ reply, nowSeconds: () => Math.floor(clock.now.getTime() / 1000) });
  receivers.push(r);
  return r;
}

/** An endpoint pointing at a loopback receiver; the receiver learns the secret to verify with. */
async function endpointFor(
  scope: Scope,
  r: Receiver,
  input: { events?: string[]; headers?: Record<string, string> } = {},
  config = configWith(),
) {
  const { endpoint, secret } = await createWebhookEndpoint(db, scope, {
    input: { url: r.url, ...input },
    ...webhookOptions(config),
  });
  r.secret = secret;
  return endpoint;
}

/** Records an event in its own transaction, as the action that causes it would. */
function emit(scope: Scope, type: EventType, objectId: number, now = clock.now) {
  return db
    .transaction()
    .execute((tx) => recordEvent(tx, scope, { type, objectType: 'webhook_endpoint', objectId, now }));
}

async function deliveriesOf(eventId: string) {
  return db.selectFrom('webhook_deliveries').selectAll().where('event_id', '=', eventId).execute();
}

describe('webhook endpoints (issue #5: URL, events, headers, secret, enabled)', () => {
  it("a new endpoint subscribes to the spec's on-by-default events; its secret is shown once and stored encrypted", async () => {
    const scope = await newScope();
    const { endpoint, secret } = await createWebhookEndpoint(db, scope, {
      input: { url: 'http://127.0.0.1:9/hooks#frag', headers: { 'X-Customer-Token': 'abc' } },
      ...webhookOptions(configWith()),
    });
    expect(endpoint).toEqual({
      object: 'webhook_endpoint',
      id: expect.any(Number),
      url: 'http://127.0.0.1:9/hooks',
      environment: 'live',
      events: ['signature_request.completed', 'signer.signed'],
      headers: { 'X-Customer-Token': 'abc' },
      enabled: true,
      created_at: clock.now.toISOString(),
      updated_at: clock.now.toISOString(),
    });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const row = await db
      .selectFrom('webhook_endpoints')
      .select('secret')
      .where('id', '=', endpoint.id)
      .executeTakeFirstOrThrow();
    expect(row.secret).toMatch(/^enc:v1:/);
    expect(row.secret).not.toContain(secret.slice(6));
    expect(JSON.stringify(await getWebhookEndpoint(db, scope, endpoint.id))).not.toContain(secret);
  });

  it('events are checked against the spec list (webhook.test cannot be subscribed) and kept in spec order', async () => {
    const scope = await newScope();
    const opts = webhookOptions(configWith());
    const { endpoint } = await createWebhookEndpoint(db, scope, {
      input: {
        url: 'http://127.0.0.1:9/',
        events: ['template.created', 'signature_request.created', 'template.created'],
      },
      ...opts,
    });
    expect(endpoint.events).toEqual(['signature_request.created', 'template.created']);
    for (const events of [[], ['signer.exploded'], ['webhook.test']]) {
      await expect(
        createWebhookEndpoint(db, scope, { input: { url: 'http://127.0.0.1:9/', events }, ...opts }),
      ).rejects.toMatchObject({ code: 'invalid_parameter', message: expect.stringContaining('events') });
    }
  });

  it('custom headers may not replace the headers the service signs and sends', async () => {
    const scope = await newScope();
    const opts = webhookOptions(configWith());
    const refusedHeaders: Record<string, string>[] = [
      { 'X-Esign-Signature': 'forged' },
      { 'User-Agent': 'me' },
      { 'Content-Type': 'text/plain' },
      { 'Bad Name': 'x' },
      { 'X-Ok': 'line\r\nbreak' },
    ];
    for (const headers of refusedHeaders) {
      await expect(
        createWebhookEndpoint(db, scope, { input: { url: 'http://127.0.0.1:9/', headers }, ...opts }),
      ).rejects.toMatchObject({ code: 'invalid_parameter', message: expect.stringContaining('headers') });
    }
  });

  it('URL rules at save: http/https only, no credentials, public addresses unless WEBHOOK_ALLOW_PRIVATE', async () => {
    const scope = await newScope();
    const strict = configWith({ WEBHOOK_ALLOW_PRIVATE: 'false' });
    const refused = async (url: string, lookup: ResolveHost = noDns, config = strict) =>
      expect(
        createWebhookEndpoint(db, scope, { input: { url }, ...webhookOptions(config, lookup) }),
      ).rejects.toMatchObject({
        code: 'invalid_parameter',
      });
    await expect(
      createWebhookEndpoint(db, scope, { input: { url: '' }, ...webhookOptions(strict) }),
    ).rejects.toMatchObject({
      code: 'missing_parameter',
    });
    await refused('ftp://hooks.example.com/');
    await refused('file:///etc/passwd');
    await refused('not a url');
    await refused('https://user:pass@hooks.example.com/', resolvesTo('93.184.216.34'));
    // Private, loopback, link-local and metadata targets, literally or through DNS.
    await refused('http://127.0.0.1:8080/hooks');
    await refused('http://10.1.2.3/hooks');
    await refused('http://192.168.1.20/hooks');
    await refused('http://[::1]/hooks');
    await refused('http://2130706433/hooks');
    await refused('http://localhost/hooks');
    await refused('http://169.254.169.254/latest/meta-data');
    await refused('https://hooks.example.test/', resolvesTo('10.0.0.7'));
    await refused('https://hooks.example.test/', async () => ['93.184.216.34', '127.0.0.1']);
    // Cloud metadata stays refused even in development.
    await refused('http://169.254.169.254/', noDns, configWith());
    // A public address is accepted (only resolved, never contacted).
    const { endpoint } = await createWebhookEndpoint(db, scope, {
      input: { url: 'https://hooks.example.test/in' },
      ...webhookOptions(strict, resolvesTo('93.184.216.34')),
    });
    expect(endpoint.url).toBe('https://hooks.example.test/in');
    // Changing the URL re-applies the rules.
    await expect(
      updateWebhookEndpoint(db, scope, {
        id: endpoint.id,
        input: { url: 'http://10.0.0.1/' },
        ...webhookOptions(strict),
      }),
    ).rejects.toMatchObject({ code: 'invalid_parameter' });
  });

  it("another account's endpoint is not_found", async () => {
    const owner = await newScope();
    const other = await newScope();
    const { endpoint } = await createWebhookEndpoint(db, owner, {
      input: { url: 'http://127.0.0.1:9/' },
      ...webhookOptions(configWith()),
    });
    await expect(getWebhookEndpoint(db, other, endpoint.id)).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      getWebhookEndpoint(db, { ...owner, environment: 'test' }, endpoint.id),
    ).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(
      sendTestWebhook({ db }, other, { endpointId: endpoint.id, ...webhookOptions(configWith()) }),
    ).rejects.toMatchObject({ code: 'not_found' });
    await expect(listWebhookDeliveries(db, other, { endpointId: endpoint.id })).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});

describe('issue 29 item 3: the endpoints of an account side are a bounded list', () => {
  it(`an account side has at most ${WEBHOOK_MAX_ENDPOINTS} endpoints: the last is created, one more is 422 invalid_request saying so; the other side and other accounts are not counted`, async () => {
    const scope = await newScope();
    const opts = webhookOptions(configWith());
    const create = (s: Scope) =>
      createWebhookEndpoint(db, s, { input: { url: 'http://127.0.0.1:9/' }, ...opts });
    for (let i = 0; i < WEBHOOK_MAX_ENDPOINTS; i++) await create(scope);
    await expect(create(scope)).rejects.toMatchObject({
      code: 'invalid_request',
      status: 422,
      message: expect.stringContaining(`at most ${WEBHOOK_MAX_ENDPOINTS} webhook endpoints`),
    });
    const count = await db
      .selectFrom('webhook_endpoints')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('account_id', '=', scope.accountId)
      .where('environment', '=', scope.environment)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(WEBHOOK_MAX_ENDPOINTS);
    await expect(create({ ...scope, environment: 'test' })).resolves.toMatchObject({
      endpoint: { url: 'http://127.0.0.1:9/' },
    });
    await expect(create(await newScope())).resolves.toBeDefined();
  });

  it("an event for more subscribed endpoints than one statement can carry (13,200: 79,200 delivery and 66,000 job parameters, over PostgreSQL's 65,535) queues a delivery and a job for each, in the action's transaction", async () => {
    const scope = await newScope();
    const many = 13_200;
    // Endpoints an account had before the bound (written directly: the service refuses the 51st).
    await sql`insert into webhook_endpoints (account_id, environment, url, events, headers, secret, enabled, created_at, updated_at)
      select ${scope.accountId}, ${scope.environment}, 'http://127.0.0.1:9/' || n, '["signer.signed"]'::jsonb, '{}'::jsonb, 'sealed', true, now(), now()
      from generate_series(1, ${many}) n`.execute(db);
    // Due long after the clock of the other tests, so their drains never run these jobs.
    const event = await emit(scope, 'signer.signed', 1, new Date('2100-01-01T00:00:00Z'));
    const deliveries = await deliveriesOf(event.id);
    expect(deliveries).toHaveLength(many);
    const ids = deliveries.map((d) => String(d.id));
    const jobs = await sql<{ n: string }>`select count(*) as n from jobs
      where kind = ${WEBHOOK_DELIVER_JOB} and payload->>'deliveryId' = any(${ids}::text[])`.execute(db);
    expect(Number(jobs.rows[0]!.n)).toBe(many);
    await sql`delete from jobs where kind = ${WEBHOOK_DELIVER_JOB} and payload->>'deliveryId' = any(${ids}::text[])`.execute(
      db,
    );
    await db.deleteFrom('webhook_endpoints').where('account_id', '=', scope.accountId).execute();
  });
});

describe('fan-out (issue #5: a row written in the same transaction as the action)', () => {
  it('an event queues one delivery per enabled endpoint of the same account side subscribed to its type', async () => {
    clock.now = new Date('2030-02-01T00:00:00Z');
    const scope = await newScope();
    const r = await receiver();
    const subscribed = await endpointFor(scope, r, { events: ['signer.signed'] });
    const other = await endpointFor(scope, r, { events: ['template.created'] });
    const disabled = await endpointFor(scope, r, { events: ['signer.signed'] });
    await disableWebhookEndpoint(db, scope, { id: disabled.id, now: clock.now });
    await endpointFor({ ...scope, environment: 'test' }, r, { events: ['signer.signed'] });
    await endpointFor(await newScope(), r, { events: ['signer.signed'] });

    const event = await emit(scope, 'signer.signed', subscribed.id);
    const rows = await deliveriesOf(event.id);
    expect(rows.map((d) => d.endpoint_id)).toEqual([subscribed.id]);
    expect(rows[0]).toMatchObject({ status: 'pending', attempts: 0, next_attempt_at: clock.now });
    const jobs = await db
      .selectFrom('jobs')
      .selectAll()
      .where('kind', '=', WEBHOOK_DELIVER_JOB)
      .where(sql<boolean>`payload->>'deliveryId' = ${String(rows[0]!.id)}`)
      .execute();
    expect(jobs).toHaveLength(1);
    expect(other.id).not.toBe(subscribed.id);
    await drain(configWith());
  });

  it('an action that rolls back leaves no event, no delivery and no job', async () => {
    const scope = await newScope();
    const r = await receiver();
    const endpoint = await endpointFor(scope, r, { events: ['template.updated'] });
    const jobsBefore = await db.selectFrom('jobs').select(db.fn.countAll().as('n')).executeTakeFirstOrThrow();
    let eventId = '';
    await db
      .transaction()
      .execute(async (tx) => {
        const event = await recordEvent(tx, scope, {
          type: 'template.updated',
          objectType: 'webhook_endpoint',
          objectId: endpoint.id,
          now: clock.now,
        });
        eventId = event.id;
        throw new Error('the action failed');
      })
      .catch(() => {});
    expect(await db.selectFrom('webhook_events').select('id').where('id', '=', eventId).execute()).toEqual(
      [],
    );
    expect(await deliveriesOf(eventId)).toEqual([]);
    const jobsAfter = await db.selectFrom('jobs').select(db.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(jobsAfter.n).toBe(jobsBefore.n);
  });
});

describe('delivery (issue #5; spec, Events: Delivery, Signature verification, Delivery rules)', () => {
  it('POST {id,type,created_at,data} signed with the endpoint secret, with event, delivery, user-agent and custom headers', async () => {
    clock.now = new Date('2030-03-01T00:00:00Z');
    const scope = await newScope();
    const r = await receiver();
    const endpoint = await endpointFor(scope, r, {
      events: ['signer.signed'],
      headers: { 'X-Customer-Token': 'tok-123' },
    });
    const event = await emit(scope, 'signer.signed', endpoint.id);
    expect(await drain(configWith())).toBeGreaterThanOrEqual(1);
    expect(r.requests).toHaveLength(1);
    const got = r.requests[0]!;
    expect(got.verified).toBe(true);
    expect(got.body).toBe(
      JSON.stringify({
        id: event.id,
        type: 'signer.signed',
        created_at: event.created_at.toISOString(),
        data: got.json.data,
      }),
    );
    expect(got.json.data).toEqual({
      object: 'webhook_endpoint',
      id: endpoint.id,
      url: r.url,
      environment: 'live',
      events: ['signer.signed'],
      enabled: true,
      created_at: endpoint.created_at,
    });
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['x-esign-event']).toBe('signer.signed');
    expect(got.headers['x-esign-delivery']).toMatch(/^[0-9a-f-]{36}$/);
    expect(got.headers['x-esign-signature']).toMatch(
      new RegExp(`^t=${Math.floor(clock.now.getTime() / 1000)},v1=[0-9a-f]{64}$`),
    );
    expect(got.headers['user-agent']).toBe('Esign-Webhooks/1.0');
    expect(got.headers['x-customer-token']).toBe('tok-123');

    const [row] = await deliveriesOf(event.id);
    const record = await getWebhookDelivery(db, scope, row!.id);
    expect(record).toMatchObject({
      object: 'webhook_delivery',
      endpoint_id: endpoint.id,
      event: { id: event.id, type: 'signer.signed', created_at: event.created_at.toISOString() },
      status: 'succeeded',
      attempt_count: 1,
      next_attempt_at: null,
      last_status_code: 200,
      last_error: null,
      completed_at: clock.now.toISOString(),
    });
    expect(record.attempts).toEqual([
      {
        attempt: 1,
        id: got.headers['x-esign-delivery'],
        started_at: clock.now.toISOString(),
        duration_ms: expect.any(Number),
        status_code: 200,
        error: null,
        error_code: null,
        response_excerpt: 'ok',
      },
    ]);
  });

  it('WEBHOOK_SERVICE_NAME names the headers and the agent', async () => {
    const scope = await newScope();
    const config = configWith({ WEBHOOK_SERVICE_NAME: 'Acme' });
    const r = await startReceiver({
      serviceName: 'Acme',
      nowSeconds: () => Math.floor(clock.now.getTime() / 1000),
    });
    receivers.push(r);
    const endpoint = await endpointFor(scope, r, { events: ['template.archived'] }, config);
    const event = await emit(scope, 'template.archived', endpoint.id);
    await drain(config);
    const got = r.requests[0]!;
    expect(got.verified).toBe(true);
    expect(got.json.id).toBe(event.id);
    expect(got.headers['x-acme-event']).toBe('template.archived');
    expect(got.headers['x-acme-delivery']).toBeDefined();
    expect(got.headers['user-agent']).toBe('Acme-Webhooks/1.0');
    expect(got.headers['x-esign-event']).toBeUndefined();
  });

  it('500 then 200: retried after 1 minute with the same event id and a new delivery id; every attempt kept', async () => {
    clock.now = new Date('2030-04-01T00:00:00Z');
    const t0 = clock.now.getTime();
    const scope = await newScope();
    const r = await receiver((_req, i) => (i === 0 ? { status: 500, body: 'database on fire' } : 200));
    const endpoint = await endpointFor(scope, r, { events: ['signer.signed'] });
    const event = await emit(scope, 'signer.signed', endpoint.id);
    const config = configWith();

    await drain(config);
    expect(r.requests).toHaveLength(1);
    const [pending] = await deliveriesOf(event.id);
    expect(pending).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_status_code: 500,
      next_attempt_at: new Date(t0 + MINUTE),
    });

    clock.now = new Date(t0 + MINUTE - 1000);
    await drain(config);
    expect(r.requests).toHaveLength(1); // not due yet

    clock.now = new Date(t0 + MINUTE);
    await drain(config);
    expect(r.requests).toHaveLength(2);
    const [first, second] = r.requests;
    expect(first!.verified && second!.verified).toBe(true);
    expect(second!.json.id).toBe(event.id);
    expect(second!.json.id).toBe(first!.json.id);
    expect(second!.json.created_at).toBe(first!.json.created_at);
    expect(second!.headers['x-esign-delivery']).not.toBe(first!.headers['x-esign-delivery']);

    const record = await getWebhookDelivery(db, scope, pending!.id);
    expect(record).toMatchObject({
      status: 'succeeded',
      attempt_count: 2,
      last_status_code: 200,
      last_error: null,
    });
    expect(record.attempts).toMatchObject([
      {
        attempt: 1,
        id: first!.headers['x-esign-delivery'],
        started_at: new Date(t0).toISOString(),
        status_code: 500,
        error: 'Endpoint answered HTTP 500',
        error_code: 'http_status',
        response_excerpt: 'database on fire',
      },
      {
        attempt: 2,
        id: second!.headers['x-esign-delivery'],
        started_at: new Date(t0 + MINUTE).toISOString(),
        status_code: 200,
        error: null,
      },
    ]);
  });

  it('10 failures stop: back-off 1, 2, 4 ... 256 minutes, then the delivery is marked failed', async () => {
    clock.now = new Date('2030-05-01T00:00:00Z');
    const scope = await newScope();
    const r = await receiver(() => 503);
    const endpoint = await endpointFor(scope, r, { events: ['signature_request.canceled'] });
    const event = await emit(scope, 'signature_request.canceled', endpoint.id);
    const config = configWith();
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 10; attempt++) {
      await drain(config);
      expect(r.requests).toHaveLength(attempt);
      const [row] = await deliveriesOf(event.id);
      if (attempt < 10) {
        expect(row).toMatchObject({ status: 'pending', attempts: attempt });
        waits.push((row!.next_attempt_at!.getTime() - clock.now.getTime()) / MINUTE);
        clock.now = row!.next_attempt_at!;
      } else {
        expect(row).toMatchObject({
          status: 'failed',
          attempts: 10,
          last_status_code: 503,
          next_attempt_at: null,
        });
        expect(row!.completed_at).toEqual(clock.now);
      }
    }
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256]);
    expect(new Set(r.requests.map((q) => q.json.id))).toEqual(new Set([event.id]));
    expect(new Set(r.requests.map((q) => q.headers['x-esign-delivery'])).size).toBe(10);
    expect(r.requests.every((q) => q.verified)).toBe(true);
    clock.now = new Date(clock.now.getTime() + 24 * 60 * MINUTE);
    await drain(config);
    expect(r.requests).toHaveLength(10);
    const [row] = await deliveriesOf(event.id);
    const record = await getWebhookDelivery(db, scope, row!.id);
    expect(record.attempts.map((a) => a.status_code)).toEqual(Array(10).fill(503));
  });

  it('WEBHOOK_RETRY_BASE_SECONDS sets the first step; the steps double', async () => {
    clock.now = new Date('2030-06-01T00:00:00Z');
    const t0 = clock.now.getTime();
    const scope = await newScope();
    const r = await receiver(() => 500);
    const endpoint = await endpointFor(scope, r, { events: ['signer.viewed'] });
    const event = await emit(scope, 'signer.viewed', endpoint.id);
    const config = configWith({ WEBHOOK_RETRY_BASE_SECONDS: '5' });
    await drain(config);
    expect((await deliveriesOf(event.id))[0]!.next_attempt_at).toEqual(new Date(t0 + 5000));
    clock.now = new Date(t0 + 5000);
    await drain(config);
    expect((await deliveriesOf(event.id))[0]!.next_attempt_at).toEqual(new Date(t0 + 15_000));
    await disableWebhookEndpoint(db, scope, { id: endpoint.id, now: clock.now });
  });

  it('no 2xx within WEBHOOK_TIMEOUT_SECONDS is a failed attempt (timeout), connection errors too', async () => {
    clock.now = new Date('2030-07-01T00:00:00Z');
    const scope = await newScope();
    const r = await receiver(() => 'hang');
    const endpoint = await endpointFor(scope, r, { events: ['signer.started'] });
    const config = configWith({ WEBHOOK_TIMEOUT_SECONDS: '1' });
    const event = await emit(scope, 'signer.started', endpoint.id);
    const started = performance.now();
    await drain(config);
    expect(performance.now() - started).toBeLessThan(5000);
    const [row] = await deliveriesOf(event.id);
    const record = await getWebhookDelivery(db, scope, row!.id);
    expect(record.status).toBe('pending');
    expect(record.attempts[0]).toMatchObject({ status_code: null, error_code: 'timeout' });
    expect(record.attempts[0]!.duration_ms).toBeGreaterThanOrEqual(900);

    await r.close();
    clock.now = record.next_attempt_at ? new Date(record.next_attempt_at) : clock.now;
    await drain(config);
    const again = await getWebhookDelivery(db, scope, row!.id);
    expect(again.attempts[1]).toMatchObject({ status_code: null, error_code: 'connection_error' });
    await disableWebhookEndpoint(db, scope, { id: endpoint.id, now: clock.now });
  });

  it('data reflects the object at delivery time; when the object is gone, the last data sent for it', async () => {
    clock.now = new Date('2030-08-01T00:00:00Z');
    const scope = await newScope();
    const r = await receiver();
    const target = await endpointFor(scope, r, { events: ['template.updated'] });
    // The event's object: another endpoint of the account (not subscribed itself).
    const { endpoint: object } = await createWebhookEndpoint(db, scope, {
      input: { url: 'http://127.0.0.1:9/elsewhere', events: ['signer.declined'] },
      ...webhookOptions(configWith()),
    });

    const first = await emit(scope, 'template.updated', object.id);
    // Changed after the event was recorded, before it was delivered.
    await updateWebhookEndpoint(db, scope, {
      id: object.id,
      input: { events: ['signer.declined', 'signer.viewed'] },
      ...webhookOptions(configWith()),
    });
    await drain(configWith());
    expect(r.requests.at(-1)!.json).toMatchObject({
      id: first.id,
      data: { object: 'webhook_endpoint', id: object.id, events: ['signer.viewed', 'signer.declined'] },
    });

    await db.deleteFrom('webhook_endpoints').where('id', '=', object.id).execute();
    const second = await emit(scope, 'template.updated', object.id);
    await drain(configWith());
    expect(r.requests.at(-1)!.json).toMatchObject({
      id: second.id,
      data: { object: 'webhook_endpoint', id: object.id, events: ['signer.viewed', 'signer.declined'] },
    });

    // Never known at all: a reference to the object.
    const third = await emit(scope, 'template.updated', 987_654);
    await drain(configWith());
    expect(r.requests.at(-1)!.json).toMatchObject({
      id: third.id,
      data: { object: 'webhook_endpoint', id: 987_654 },
    });
    expect(target.id).toBeGreaterThan(0);
  });

  it('a disabled endpoint receives nothing: deliveries already queued fail at their turn', async () => {
    clock.now = new Date('2030-09-01T00:00:00Z');
    const scope = await newScope();
    const r = await receiver();
    const endpoint = await endpointFor(scope, r, { events: ['signer.signed'] });
    const event = await emit(scope, 'signer.signed', endpoint.id);
    await disableWebhookEndpoint(db, scope, { id: endpoint.id, now: clock.now });
    await drain(configWith());
    expect(r.requests).toHaveLength(0);
    const [row] = await deliveriesOf(event.id);
    expect(row).toMatchObject({
      status: 'failed',
      attempts: 0,
      last_error: 'The endpoint was disabled before this event was delivered',
    });
  });

  it('the signing secret only opens with the server secret it was sealed under', async () => {
    clock.now = new Date('2030-10-01T00:00:00Z');
    const scope = await newScope();
    const r = await receiver();
    const endpoint = await endpointFor(scope, r, { events: ['signer.signed'] });
    const event = await emit(scope, 'signer.signed', endpoint.id);
    await drain(configWith({ SECRET_KEY: 'a-different-server-secret-0123456789abcdef' }));
    expect(r.requests).toHaveLength(0);
    const [row] = await deliveriesOf(event.id);
    const record = await getWebhookDelivery(db, scope, row!.id);
    expect(record.attempts[0]).toMatchObject({ error_code: 'secret_error', status_code: null });
    clock.now = new Date(record.next_attempt_at!);
    await drain(configWith());
    expect(r.requests).toHaveLength(1);
    expect(r.requests[0]!.verified).toBe(true);
  });
});

describe('address rules at delivery (spec, Delivery rules: rejected when saved and again at delivery)', () => {
  it('a name that resolves to a private address at delivery is refused and nothing is sent', async () => {
    clock.now = new Date('2030-11-01T00:00:00Z');
    const strict = configWith({ WEBHOOK_ALLOW_PRIVATE: 'false' });
    const scope = await newScope();
    const r = await receiver();
    // Saved while the name pointed at a public address (resolved, never contacted).
    const { endpoint } = await createWebhookEndpoint(db, scope, {
      input: { url: `http://hooks.example.test:${r.port}/hooks`, events: ['signer.signed'] },
      ...webhookOptions(strict, resolvesTo('93.184.216.34')),
    });
    // By delivery time it resolves to the loopback receiver: DNS rebinding.
    const event = await emit(scope, 'signer.signed', endpoint.id);
    await drain(strict, resolvesTo('127.0.0.1'));
    expect(r.requests).toHaveLength(0);
    const [row] = await deliveriesOf(event.id);
    const record = await getWebhookDelivery(db, scope, row!.id);
    expect(record.status).toBe('pending');
    expect(record.attempts[0]).toMatchObject({
      status_code: null,
      error_code: 'blocked',
      error: expect.stringContaining('127.0.0.1'),
    });
    await disableWebhookEndpoint(db, scope, { id: endpoint.id, now: clock.now });
  });

  it('an endpoint saved with WEBHOOK_ALLOW_PRIVATE=true is refused at delivery once it is false', async () => {
    clock.now = new Date('2030-11-02T00:00:00Z');
    const scope = await newScope();
    const r = await receiver();
    const endpoint = await endpointFor(scope, r, { events: ['signer.signed'] });
    const event = await emit(scope, 'signer.signed', endpoint.id);
    await drain(configWith({ WEBHOOK_ALLOW_PRIVATE: 'false' }));
    expect(r.requests).toHaveLength(0);
    const [row] = await deliveriesOf(event.id);
    const record = await getWebhookDelivery(db, scope, row!.id);
    expect(record.attempts[0]).toMatchObject({
      error_code: 'blocked',
      error: expect.stringContaining('loopback'),
    });
    await disableWebhookEndpoint(db, scope, { id: endpoint.id, now: clock.now });
  });
});

describe('webhook.test (spec, Event types: sent immediately whatever events are subscribed; never retried)', () => {
  it('is sent at once to an endpoint that does not subscribe to it, with data describing the endpoint', async () => {
    clock.now = new Date('2030-12-01T00:00:00Z');
    const scope = await newScope();
    const r = await receiver();
    const endpoint = await endpointFor(scope, r, { events: ['template.created'] });
    const record = await sendTestWebhook({ db }, scope, {
      endpointId: endpoint.id,
      ...webhookOptions(configWith()),
    });
    expect(r.requests).toHaveLength(1);
    const got = r.requests[0]!;
    expect(got.verified).toBe(true);
    expect(got.headers['x-esign-event']).toBe('webhook.test');
    expect(got.json).toEqual({
      id: record.event.id,
      type: 'webhook.test',
      created_at: clock.now.toISOString(),
      data: {
        object: 'webhook_endpoint',
        id: endpoint.id,
        url: r.url,
        environment: 'live',
        events: ['template.created'],
        enabled: true,
        created_at: endpoint.created_at,
      },
    });
    expect(record).toMatchObject({
      object: 'webhook_delivery',
      endpoint_id: endpoint.id,
      event: { type: 'webhook.test' },
      status: 'succeeded',
      attempt_count: 1,
      last_status_code: 200,
      attempts: [{ attempt: 1, id: got.headers['x-esign-delivery'], status_code: 200 }],
    });
    // Other endpoints of the account, even those subscribed to everything, get nothing.
    const others = await db
      .selectFrom('webhook_deliveries')
      .select('endpoint_id')
      .where('event_id', '=', record.event.id)
      .execute();
    expect(others).toEqual([{ endpoint_id: endpoint.id }]);
  });

  it('a failed webhook.test is not retried, even by the worker that watches for interrupted sends', async () => {
    clock.now = new Date('2031-01-01T00:00:00Z');
    const config = configWith();
    const scope = await newScope();
    const r = await receiver(() => 500);
    const endpoint = await endpointFor(scope, r);
    const record = await sendTestWebhook({ db }, scope, {
      endpointId: endpoint.id,
      ...webhookOptions(config),
    });
    expect(record).toMatchObject({
      status: 'failed',
      attempt_count: 1,
      last_status_code: 500,
      next_attempt_at: null,
    });
    clock.now = new Date(clock.now.getTime() + webhookLeaseMs(config) + 10 * MINUTE);
    await drain(config);
    clock.now = new Date(clock.now.getTime() + 24 * 60 * MINUTE);
    await drain(config);
    expect(r.requests).toHaveLength(1);
  });

  it('is sent to a disabled endpoint too, so it can be tried before it is switched on', async () => {
    clock.now = new Date('2031-01-02T00:00:00Z');
    const scope = await newScope();
    const r = await receiver();
    const endpoint = await endpointFor(scope, r);
    await disableWebhookEndpoint(db, scope, { id: endpoint.id, now: clock.now });
    const record = await sendTestWebhook({ db }, scope, {
      endpointId: endpoint.id,
      ...webhookOptions(configWith()),
    });
    expect(record.status).toBe('succeeded');
    expect(r.requests[0]!.json.data.enabled).toBe(false);
  });
});

describe('workers (issue #5: never delivered twice concurrently; a killed worker loses nothing)', () => {
  it('two workers draining the same queue deliver each event exactly once, even with duplicate wake-ups', async () => {
    clock.now = new Date('2031-02-01T00:00:00Z');
    const config = configWith();
    const scope = await newScope();
    // A receiver slow enough for the two workers' attempts to overlap.
    const r = await receiver(() => new Promise((resolve) => setTimeout(() => resolve(200), 15)));
    const endpoint = await endpointFor(scope, r, { events: ['signer.signed'] });
    const events = [];
    for (let i = 0; i < 30; i++) {
      const event = await emit(scope, 'signer.signed', endpoint.id);
      events.push(event);
      // A second wake-up queued right behind the first: the two workers pick them up together, and
      // only the lease on the delivery row keeps them apart.
      const [delivery] = await deliveriesOf(event.id);
      await enqueueJob(db, {
        kind: WEBHOOK_DELIVER_JOB,
        payload: { deliveryId: delivery!.id },
        runAt: clock.now,
      });
    }
    const ctx = jobContext(config);
    const h = handlers();
    await Promise.all(
      ['worker-a', 'worker-b'].map(async (id) => {
        while (await runOneJob(ctx, h, { workerId: id })) {}
      }),
    );
    expect(r.requests).toHaveLength(30);
    expect(new Set(r.requests.map((q) => q.json.id))).toEqual(new Set(events.map((e) => e.id)));
    expect(r.requests.every((q) => q.verified)).toBe(true);
    const rows = await db
      .selectFrom('webhook_deliveries')
      .select(['status', 'attempts'])
      .where('endpoint_id', '=', endpoint.id)
      .execute();
    expect(rows.every((d) => d.status === 'succeeded' && d.attempts === 1)).toBe(true);
  });

  it('the production job registry runs webhook.deliver', async () => {
    clock.now = new Date('2031-02-02T00:00:00Z');
    const scope = await newScope();
    const r = await receiver();
    const endpoint = await endpointFor(scope, r, { events: ['signer.signed'] });
    const event = await emit(scope, 'signer.signed', endpoint.id);
    await drainJobs(jobContext(configWith()), jobHandlers);
    expect(r.requests.map((q) => q.json.id)).toEqual([event.id]);
  });

  it('a job claimed by a worker that died is delivered by another once the lease has run out, same event id', async () => {
    clock.now = new Date('2031-03-01T00:00:00Z');
    const t0 = clock.now.getTime();
    const config = configWith();
    const scope = await newScope();
    const r = await receiver();
    const endpoint = await endpointFor(scope, r, { events: ['signer.signed'] });
    const event = await emit(scope, 'signer.signed', endpoint.id);
    const claimed = await claimJob(db, {
      workerId: 'dead-worker',
      now: clock.now,
      kinds: [WEBHOOK_DELIVER_JOB],
    });
    expect(claimed).not.toBeNull();
    // The dead worker never answers; while its lease runs nobody else takes the job.
    clock.now = new Date(t0 + 20_000);
    await drain(config);
    expect(r.requests).toHaveLength(0);
    clock.now = new Date(t0 + 6 * MINUTE);
    await drain(config);
    expect(r.requests).toHaveLength(1);
    expect(r.requests[0]!.json.id).toBe(event.id);
    expect(r.requests[0]!.verified).toBe(true);
  });

  it('while an attempt holds the delivery, another worker cannot start one (first attempt and retries)', async () => {
    clock.now = new Date('2031-04-01T00:00:00Z');
    const config = configWith();
    const scope = await newScope();
    const answers: (() => void)[] = [];
    const slow = await receiver(
      (_q, i) =>
        new Promise((resolve) => {
          answers[i] = () => resolve(i === 0 ? 500 : 200);
        }),
    );
    const endpoint = await endpointFor(scope, slow, { events: ['signer.signed'] }, config);
    const event = await emit(scope, 'signer.signed', endpoint.id);
    const [row] = await deliveriesOf(event.id);
    const opts = { config, now: () => clock.now, lookup: noDns };
    for (const attempt of [1, 2]) {
      const first = attemptWebhookDelivery({ db }, row!.id, opts);
      await slow.waitFor(attempt);
      // In flight: a second worker (a duplicate wake-up, say) finds the delivery held.
      expect(await attemptWebhookDelivery({ db }, row!.id, opts)).toEqual({
        kind: 'leased',
        until: new Date(clock.now.getTime() + webhookLeaseMs(config)),
      });
      answers[attempt - 1]!();
      expect(await first).toMatchObject({ kind: attempt === 1 ? 'retrying' : 'succeeded', attempt });
      clock.now = new Date(clock.now.getTime() + MINUTE);
    }
    expect(await attemptWebhookDelivery({ db }, row!.id, opts)).toEqual({ kind: 'skipped' });
    expect(slow.requests).toHaveLength(2);
  });
});

describe('delivery records (issue #5: for the dashboard and `esign webhook deliveries`)', () => {
  it('newest first in the list envelope, filtered by endpoint and status, with cursor paging', async () => {
    clock.now = new Date('2031-05-01T00:00:00Z');
    const scope = await newScope();
    const r = await receiver((_q, i) => (i % 2 === 0 ? 200 : 500));
    const endpoint = await endpointFor(scope, r, { events: ['signer.signed'] });
    const events = [];
    for (let i = 0; i < 5; i++) {
      events.push(await emit(scope, 'signer.signed', endpoint.id));
      await drain(configWith());
    }
    const all = await listWebhookDeliveries(db, scope, { endpointId: endpoint.id });
    expect(all).toMatchObject({ object: 'list', has_more: false, next_cursor: null });
    expect(all.data.map((d) => d.event.id)).toEqual(events.map((e) => e.id).reverse());
    const page1 = await listWebhookDeliveries(db, scope, { endpointId: endpoint.id, limit: 2 });
    expect(page1.has_more).toBe(true);
    const page2 = await listWebhookDeliveries(db, scope, {
      endpointId: endpoint.id,
      limit: 2,
      cursor: page1.next_cursor!,
    });
    expect([...page1.data, ...page2.data].map((d) => d.id)).toEqual(all.data.slice(0, 4).map((d) => d.id));
    const pending = await listWebhookDeliveries(db, scope, { endpointId: endpoint.id, status: 'pending' });
    expect(pending.data.map((d) => d.event.id)).toEqual([events[3]!.id, events[1]!.id]);
    await expect(listWebhookDeliveries(db, scope, { limit: 0 })).rejects.toMatchObject({
      code: 'invalid_parameter',
    });
    await disableWebhookEndpoint(db, scope, { id: endpoint.id, now: clock.now });
  });
});
