import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '@esign/core';
import { createWebhookEndpoint } from '@esign/core/operator';
import { recordEvent } from '@esign/core/testing';
import type { Scope } from '@esign/db';
import { createTestDatabase, type TestDatabase } from '@esign/testing/db';
import {
  type AppProcess,
  isReady,
  mcpToolCall,
  sleep,
  spawnApp,
  terminateBackends,
  until,
} from '@esign/testing/processes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Receiver, startReceiver } from '../../../packages/core/test/webhook-receiver.ts';
import { createTestAccount } from '../../../test/harness.ts';

// Issue 9, item 4: connections killed server-side under load. The REST API, MCP and worker
// processes run as operators run them, each on its own pool against one database; while requests
// and webhook deliveries are in flight, every one of their connections (pooled, checked out,
// mid-transaction, the worker's LISTEN connection) is ended with pg_terminate_backend, again and
// again. A request caught by it may fail, but only as a clean 500 internal_error; no process
// exits, and once the database is left alone everything works again.

const APP_NAMES = ['esign-api', 'esign-mcp', 'esign-worker', 'esign-jobs-listen'];
const env = {
  SECRET_KEY: 'connection-loss-test-secret-0123456789abcdef',
  DATA_DIR: mkdtempSync(join(tmpdir(), 'esign-conn-loss-')),
  WEBHOOK_ALLOW_PRIVATE: 'true',
  RATE_LIMIT_PER_MINUTE: '1000000',
};

let tdb: TestDatabase;
let receiver: Receiver;
const procs: AppProcess[] = [];

beforeAll(async () => {
  tdb = await createTestDatabase();
  receiver = await startReceiver();
  const common = { ...env, DATABASE_URL: tdb.url };
  procs.push(
    await spawnApp('api', common),
    await spawnApp('mcp', common),
    await spawnApp('worker', { ...common, WORKER_CONCURRENCY: '4' }),
  );
});
afterAll(async () => {
  await Promise.all(procs.map((p) => p.stop()));
  await receiver?.close();
  await tdb?.drop();
});

interface Outcome {
  status: number | 'network_error';
  /** The error code: REST's `error.code`, or for MCP the tool result's (`isError`). */
  code?: string;
}

async function call(url: string, init: RequestInit = {}): Promise<Outcome> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
    const text = await res.text();
    let code: string | undefined;
    try {
      const body = JSON.parse(text);
      // A failed MCP tool call carries `{ error: { code, message } }` as its text.
      const tool = body?.result?.isError ? JSON.parse(body.result.content?.[0]?.text ?? '{}') : null;
      code = body?.error?.code ?? tool?.error?.code;
    } catch {}
    return code ? { status: res.status, code } : { status: res.status };
  } catch {
    return { status: 'network_error' };
  }
}

describe('connections terminated server-side under load (issue 9.4)', () => {
  it('pg_terminate_backend on every API, MCP and worker connection, repeatedly under load: in-flight requests fail as 500 internal_error, no process exits, and requests and webhook deliveries succeed afterwards', {
    timeout: 180_000,
  }, async () => {
    const [api, mcp, worker] = procs as [AppProcess, AppProcess, AppProcess];
    await until(
      'api and mcp ready',
      async () => (await isReady(api.base)) && (await isReady(mcp.base)),
      60_000,
    );
    const owner = await createTestAccount(tdb.db);
    const config = parseConfig({ ...env, DATABASE_URL: tdb.url });
    const scope: Scope = { accountId: owner.accountId, environment: 'live' };
    const { endpoint, secret } = await createWebhookEndpoint(tdb.db, scope, {
      input: { url: receiver.url, events: ['signer.signed'] },
      config,
      now: () => new Date(),
    });
    receiver.secret = secret;
    const sendEvent = () =>
      tdb.db.transaction().execute((tx) =>
        recordEvent(tx, scope, {
          type: 'signer.signed',
          objectType: 'webhook_endpoint',
          objectId: endpoint.id,
          now: new Date(),
        }),
      );
    const headers = { authorization: `Bearer ${owner.key}` };
    const mcpCall = () => call(`${mcp.base}/mcp`, mcpToolCall(owner.key, 'get_account'));
    // Everything works before the storm (the worker is up: a webhook arrives).
    expect((await call(`${api.base}/api/v1/me`, { headers })).status).toBe(200);
    await sendEvent();
    await receiver.waitFor(1, 30_000);

    const outcomes: Outcome[] = [];
    let storming = true;
    const load = async (fn: () => Promise<Outcome>) => {
      while (storming) outcomes.push(await fn());
    };
    const loaders = [
      ...Array.from({ length: 6 }, () => load(() => call(`${api.base}/api/v1/me`, { headers }))),
      ...Array.from({ length: 3 }, () => load(mcpCall)),
      load(async () => {
        await sendEvent().catch(() => {});
        await sleep(50);
        return { status: 200 };
      }),
    ];
    let terminated = 0;
    const stormEnds = Date.now() + 8_000;
    while (Date.now() < stormEnds) {
      terminated += await terminateBackends(tdb.url, APP_NAMES);
      await sleep(100);
    }
    storming = false;
    await Promise.all(loaders);

    // The processes are all still up, and the storm did hit their connections.
    const dead = procs.filter((p) => !p.alive());
    expect(
      dead.map((p) => p.name),
      dead.map((p) => `${p.name} exited:\n${p.output().slice(0, 600)}`).join('\n'),
    ).toEqual([]);
    expect(terminated).toBeGreaterThan(20);
    // Requests caught by a termination failed cleanly: never a dropped connection; REST answers
    // 500 internal_error, MCP a tool result with isError and internal_error.
    const failures = outcomes.filter((o) => o.status !== 200 || o.code);
    expect(outcomes.filter((o) => o.status === 'network_error')).toEqual([]);
    for (const f of failures)
      expect([
        { status: 500, code: 'internal_error' },
        { status: 200, code: 'internal_error' },
      ]).toContainEqual(f);
    expect(outcomes.length - failures.length).toBeGreaterThan(0);

    // Left alone, every process reconnects: readiness, REST, MCP and a new webhook delivery.
    await until('api ready again', () => isReady(api.base), 30_000);
    await until('mcp ready again', () => isReady(mcp.base), 30_000);
    expect((await call(`${api.base}/api/v1/me`, { headers })).status).toBe(200);
    expect((await mcpCall()).status).toBe(200);
    const before = receiver.requests.length;
    const last = await sendEvent();
    await until(
      'a webhook sent after the storm arrives',
      () => receiver.requests.some((r, i) => i >= before && r.json.id === last.id),
      30_000,
    );
    for (const p of [api, mcp, worker]) expect(p.alive(), p.output()).toBe(true);
  });
});
