import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '@esign/core';
import { createWebhookEndpoint } from '@esign/core/operator';
import { recordEvent } from '@esign/core/testing';
import type { Scope } from '@esign/db';
import { createTestDatabase, type TestDatabase } from '@esign/testing/db';
import { type Sample, sampleValue, scrape } from '@esign/testing/metrics';
import { b64, plainPdf } from '@esign/testing/pdfs';
import {
  type AppProcess,
  freePort,
  isReady,
  listeningPorts,
  spawnApp,
  until,
} from '@esign/testing/processes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../../../packages/core/test/webhook-receiver.ts';
import { createTestAccount } from '../../../test/harness.ts';

// Issue 27, item 6: operators can see trouble coming. Every process entry, started as operators
// start it, serves Prometheus metrics on METRICS_PORT (and nothing when it is unset), and the
// values move with what the process does.

const env = {
  SECRET_KEY: 'metrics-test-secret-0123456789abcdef0123',
  DATA_DIR: mkdtempSync(join(tmpdir(), 'esign-metrics-')),
  WEBHOOK_ALLOW_PRIVATE: 'true',
  RATE_LIMIT_PER_MINUTE: '1000000',
};
const ID = '987654321';
const TOKEN = 'tok-metrics-secret-4f1c9a';

let tdb: TestDatabase;
/** The all-in-one's own database, dropped under it in the last test. */
let tdb2: TestDatabase;
let dropped = false;
let receiver: Receiver;
const procs: Record<string, { proc: AppProcess; metricsPort: number | null }> = {};

beforeAll(async () => {
  [tdb, tdb2] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  // The first delivery is answered 500 (a retry), the others 200.
  receiver = await startReceiver({ reply: (_r, index) => (index === 0 ? 500 : 200) });
  const common = { ...env, DATABASE_URL: tdb.url };
  const start = async (
    key: string,
    name: Parameters<typeof spawnApp>[0],
    extra: Record<string, string>,
    metrics = true,
  ) => {
    const metricsPort = metrics ? await freePort() : null;
    const proc = await spawnApp(name, {
      ...extra,
      ...(metricsPort ? { METRICS_PORT: String(metricsPort) } : {}),
    });
    procs[key] = { proc, metricsPort };
  };
  await start('api', 'api', { ...common, ESIGN_RESTART_COUNT: '3' });
  await start('mcp', 'mcp', common);
  await start('web', 'web', common);
  await start('worker', 'worker', common);
  await start('server', 'server', { ...env, DATABASE_URL: tdb2.url });
  await start('plain', 'api', common, false);
  for (const [key, { proc }] of Object.entries(procs)) {
    if (key === 'worker') continue;
    await until(`${key} ready`, () => isReady(proc.base), 90_000);
  }
  await until('worker metrics', () => scrape(procs.worker!.metricsPort!).then(() => true), 60_000);
}, 180_000);

afterAll(async () => {
  await Promise.all(Object.values(procs).map((p) => p.proc.stop()));
  await receiver?.close();
  await tdb?.drop();
  if (!dropped) await tdb2?.drop();
});

const metricsOf = async (key: string) => (await scrape(procs[key]!.metricsPort!)).samples;
const value = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  sampleValue(samples, name, labels) ?? 0;

describe('Prometheus metrics on METRICS_PORT (issue 27.6)', () => {
  it('every process entry (api, mcp, web, worker, all-in-one) serves the text exposition with the default metrics and every esign_ family; esign_process_restarts is ESIGN_RESTART_COUNT', async () => {
    for (const key of ['api', 'mcp', 'web', 'worker', 'server']) {
      const { metricsPort, proc } = procs[key]!;
      const got = await scrape(metricsPort!);
      expect(got.contentType, key).toMatch(/^text\/plain; version=0\.0\.4/);
      const names = new Set(got.samples.map((s) => s.name));
      for (const name of [
        'process_start_time_seconds',
        'nodejs_eventloop_lag_seconds',
        'esign_process_restarts',
        'esign_db_pool_total',
        'esign_db_pool_idle',
        'esign_db_pool_waiting',
        'esign_db_pool_acquire_seconds_count',
        'esign_document_pool_queued',
        'esign_document_pool_resident_bytes',
        'esign_jobs_pending',
        'esign_jobs_oldest_pending_age_seconds',
        'esign_job_queue_up',
        'esign_webhook_deliveries_total',
        'esign_sealing_failures_total',
      ])
        expect(names.has(name), `${key}: ${name}`).toBe(true);
      expect(sampleValue(got.samples, 'esign_process_restarts'), key).toBe(key === 'api' ? 3 : 0);
      expect(sampleValue(got.samples, 'esign_job_queue_up'), key).toBe(1);
      expect(sampleValue(got.samples, 'esign_jobs_pending', { kind: 'request.seal' }), key).toBe(0);
      if (key === 'worker') continue;
      await fetch(`${proc.base}/healthz`);
      const after = await metricsOf(key);
      expect(
        value(after, 'esign_http_requests_total', { route: '/healthz', status: '200' }),
        key,
      ).toBeGreaterThan(0);
    }
  });

  it('HTTP requests are counted by route pattern and status, with latency histograms; no label carries an id, a signing token or a key', async () => {
    const owner = await createTestAccount(tdb.db);
    const api = procs.api!.proc;
    const route = { method: 'GET', route: '/api/v1/signature_requests/{id}' };
    const before = await metricsOf('api');
    const headers = { authorization: `Bearer ${owner.key}` };
    for (let i = 0; i < 2; i++)
      expect((await fetch(`${api.base}/api/v1/signature_requests/${ID}`, { headers })).status).toBe(404);
    expect((await fetch(`${api.base}/api/v1/templates`, { headers })).status).toBe(200);
    expect((await fetch(`${api.base}/no/such/${ID}`)).status).toBe(404);
    const after = await metricsOf('api');
    const count = (s: Sample[], labels: Record<string, string>) =>
      value(s, 'esign_http_requests_total', labels);
    expect(count(after, { ...route, status: '404' }) - count(before, { ...route, status: '404' })).toBe(2);
    const list = { method: 'GET', route: '/api/v1/templates', status: '200' };
    expect(count(after, list) - count(before, list)).toBe(1);
    const unmatched = { route: 'unmatched', status: '404' };
    expect(count(after, unmatched) - count(before, unmatched)).toBe(1);
    const histogram = { ...route, status: '404' };
    expect(
      value(after, 'esign_http_request_duration_seconds_count', histogram) -
        value(before, 'esign_http_request_duration_seconds_count', histogram),
    ).toBe(2);
    expect(value(after, 'esign_http_request_duration_seconds_bucket', { ...histogram, le: '+Inf' })).toBe(
      value(after, 'esign_http_request_duration_seconds_count', histogram),
    );
    // Every request above took a pooled connection (the key check, the read).
    expect(value(after, 'esign_db_pool_acquire_seconds_count')).toBeGreaterThan(
      value(before, 'esign_db_pool_acquire_seconds_count'),
    );

    // MCP answers through the SDK's transport on a hijacked reply: counted all the same.
    const mcp = procs.mcp!.proc;
    const mcpBefore = await metricsOf('mcp');
    const listed = await fetch(`${mcp.base}/mcp`, {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(listed.status).toBe(200);
    const mcpRoute = { method: 'POST', route: '/mcp', status: '200' };
    expect(count(await metricsOf('mcp'), mcpRoute) - count(mcpBefore, mcpRoute)).toBe(1);

    const web = procs.web!.proc;
    await fetch(`${web.base}/s/${TOKEN}`);
    await fetch(`${web.base}/files/${TOKEN}/contract.pdf`);
    const webAfter = await metricsOf('web');
    expect(value(webAfter, 'esign_http_requests_total', { route: '/s/:token' })).toBeGreaterThan(0);
    expect(value(webAfter, 'esign_http_requests_total', { route: '/files/:token/:name' })).toBeGreaterThan(0);
    for (const s of [...after, ...webAfter])
      for (const v of Object.values(s.labels)) {
        expect(v).not.toContain(ID);
        expect(v).not.toContain(TOKEN);
        expect(v).not.toContain(owner.key);
      }
  });

  it('the job backlog and its oldest pending age, per kind, come from the durable queue', async () => {
    await tdb.db
      .insertInto('jobs')
      .values({ kind: 'metrics.probe', payload: '{}', run_at: new Date(Date.now() - 90_000) })
      .execute();
    // Scrapes share one reading of the queue for a few seconds: the new job shows within those.
    let samples: Sample[] = [];
    await until(
      'the probe job in esign_jobs_pending',
      async () => {
        samples = await metricsOf('api');
        return sampleValue(samples, 'esign_jobs_pending', { kind: 'metrics.probe' }) === 1;
      },
      15_000,
      500,
    );
    const age = sampleValue(samples, 'esign_jobs_oldest_pending_age_seconds', { kind: 'metrics.probe' })!;
    expect(age).toBeGreaterThanOrEqual(90);
    expect(age).toBeLessThan(300);
    expect(sampleValue(samples, 'esign_jobs_running', { kind: 'metrics.probe' })).toBe(0);
  });

  it('webhook deliveries are counted by outcome on the worker that makes them', async () => {
    const owner = await createTestAccount(tdb.db);
    const config = parseConfig({ ...env, DATABASE_URL: tdb.url });
    const scope: Scope = { accountId: owner.accountId, environment: 'live' };
    const { endpoint, secret } = await createWebhookEndpoint(tdb.db, scope, {
      input: { url: receiver.url, events: ['signer.signed'] },
      config,
      now: () => new Date(),
    });
    receiver.secret = secret;
    const before = await metricsOf('worker');
    for (let i = 0; i < 2; i++)
      await tdb.db.transaction().execute((tx) =>
        recordEvent(tx, scope, {
          type: 'signer.signed',
          objectType: 'webhook_endpoint',
          objectId: endpoint.id,
          now: new Date(),
        }),
      );
    const moved = (s: Sample[], outcome: string) =>
      value(s, 'esign_webhook_deliveries_total', { outcome }) -
      value(before, 'esign_webhook_deliveries_total', { outcome });
    await until(
      'one delivery succeeded and one to be retried',
      async () => {
        const s = await metricsOf('worker');
        return moved(s, 'succeeded') === 1 && moved(s, 'retry') === 1;
      },
      30_000,
      250,
    );
  });

  it("the document pool's workers and their memory show once a document was processed", async () => {
    const owner = await createTestAccount(tdb.db);
    const res = await fetch(`${procs.api!.proc.base}/api/v1/templates`, {
      method: 'POST',
      headers: { authorization: `Bearer ${owner.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Metrics',
        documents: [{ file: b64(await plainPdf(1)) }],
        fields: [
          {
            name: 'Sign',
            type: 'signature',
            role: 'Client',
            areas: [{ page: 1, x: 0.1, y: 0.1, w: 0.3, h: 0.05 }],
          },
        ],
      }),
    });
    expect(res.status, await res.text()).toBe(201);
    // The worker that ingested it is kept warm a while (30 s).
    const s = await metricsOf('api');
    expect(value(s, 'esign_document_pool_workers')).toBeGreaterThanOrEqual(1);
    expect(value(s, 'esign_document_pool_resident_bytes')).toBeGreaterThan(10_000_000);
    expect(value(s, 'esign_document_pool_queued')).toBe(0);
  });

  it.runIf(process.platform === 'linux')(
    'unset METRICS_PORT: the process listens on PORT alone; set, on PORT and METRICS_PORT',
    () => {
      const port = (p: AppProcess) => Number(new URL(p.base).port);
      const plain = procs.plain!.proc;
      expect(listeningPorts(plain.child.pid!)).toEqual([port(plain)]);
      const api = procs.api!;
      expect(listeningPorts(api.proc.child.pid!)).toEqual(
        [port(api.proc), api.metricsPort!].sort((a, b) => a - b),
      );
      // The worker serves /healthz and /readyz on PORT too (issue 41 item 6).
      const worker = procs.worker!;
      expect(listeningPorts(worker.proc.child.pid!)).toEqual(
        [port(worker.proc), worker.metricsPort!].sort((a, b) => a - b),
      );
    },
  );

  it('a database that fails during a scrape neither fails nor hangs it: esign_job_queue_up 0, the per-kind values left out, the rest reported', {
    timeout: 60_000,
  }, async () => {
    const server = procs.server!;
    expect(sampleValue(await metricsOf('server'), 'esign_job_queue_up')).toBe(1);
    dropped = true;
    await tdb2.drop();
    // Scraped until the reading cached for a few seconds expires and the next one fails: every
    // scrape meanwhile answers within 5 s.
    let s: Sample[] = [];
    const scrapes: (number | string)[] = [];
    await until(
      'esign_job_queue_up 0',
      async () => {
        const started = Date.now();
        s = await metricsOf('server').catch((err) => (scrapes.push(String(err)), []));
        scrapes.push(Date.now() - started);
        return sampleValue(s, 'esign_job_queue_up') === 0;
      },
      20_000,
      250,
    );
    expect(scrapes.filter((ms) => typeof ms !== 'number' || ms >= 5_000)).toEqual([]);
    expect(s.filter((x) => x.name === 'esign_jobs_pending')).toEqual([]);
    expect(sampleValue(s, 'process_start_time_seconds')).toBeGreaterThan(0);
    expect(sampleValue(s, 'esign_db_pool_max')).toBe(10);
    expect(server.proc.alive()).toBe(true);
  });
});
