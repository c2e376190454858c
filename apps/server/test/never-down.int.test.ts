import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@esign/testing/db';
import { b64, plainPdf, signatureField } from '@esign/testing/pdfs';
import { type AppProcess, isReady, mcpToolCall, sleep, spawnApp, until } from '@esign/testing/processes';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount, type TestAccount } from '../../../test/harness.ts';

// Issue 27, "never down": the termination storm the issue reproduced (every backend of the
// database ended with pg_terminate_backend every 100 ms for 8 s) under a mixed load that includes
// idempotent sends, against the all-in-one process and every scaled one at once. It used to end the
// process (an idempotency release nobody caught). Now: no process exits, each is ready again
// within 10 s, the next send works, and every key's send exists exactly once.

const env = {
  SECRET_KEY: 'never-down-test-secret-0123456789abcdef0123',
  DATA_DIR: mkdtempSync(join(tmpdir(), 'esign-never-down-')),
  RATE_LIMIT_PER_MINUTE: '1000000',
  LOG_LEVEL: 'error',
};

let tdb: TestDatabase;
const procs: Record<'server' | 'api' | 'mcp' | 'web' | 'worker', AppProcess> = {} as never;

beforeAll(async () => {
  tdb = await createTestDatabase();
  const common = { ...env, DATABASE_URL: tdb.url };
  for (const name of ['server', 'api', 'mcp', 'web', 'worker'] as const)
    procs[name] = await spawnApp(name, common);
}, 120_000);
afterAll(async () => {
  await Promise.all(Object.values(procs).map((p) => p.stop()));
  await tdb?.drop();
});

type Status = number | 'network_error';

async function status(
  url: string,
  init: RequestInit = {},
): Promise<{ status: Status; code?: string; body?: any }> {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
    const body = await res.json().catch(() => null);
    return { status: res.status, code: body?.error?.code, body };
  } catch {
    return { status: 'network_error' };
  }
}

/** The storm: every other backend of the database, ended every 100 ms for `ms`. */
async function terminationStorm(dbUrl: string, ms: number): Promise<number> {
  const admin = new pg.Client({ connectionString: dbUrl, application_name: 'esign-test-storm' });
  admin.on('error', () => {});
  await admin.connect();
  let ended = 0;
  try {
    const stop = Date.now() + ms;
    while (Date.now() < stop) {
      const { rows } = await admin.query<{ ended: boolean }>(
        `select pg_terminate_backend(pid) as ended from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid()`,
      );
      ended += rows.filter((r) => r.ended).length;
      await sleep(100);
    }
  } finally {
    await admin.end().catch(() => {});
  }
  return ended;
}

/** Sends with one Idempotency-Key until a 201, retrying 500 and 409 as the error messages ask. */
function idempotentSender(owner: TestAccount, templateId: number) {
  const outcomes: { status: Status; code?: string }[] = [];
  const keys = new Map<string, number | null>(); // key → request id once a 201 came back
  const sendOnce = async (base: string, key: string) => {
    const r = await status(`${base}/api/v1/signature_requests`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${owner.key}`,
        'content-type': 'application/json',
        'idempotency-key': key,
      },
      body: JSON.stringify({
        template_id: templateId,
        signers: [{ name: 'Storm', email: 'storm@example.com', external_id: key }],
      }),
    });
    outcomes.push({ status: r.status, ...(r.code ? { code: r.code } : {}) });
    if (r.status === 201) keys.set(key, r.body.id);
    return r.status;
  };
  return {
    outcomes,
    keys,
    /** One key, sent to `base` until it answers 201 or `deadline` passes. */
    async send(base: string, deadline: number) {
      const key = crypto.randomUUID();
      keys.set(key, null);
      while ((await sendOnce(base, key)) !== 201 && Date.now() < deadline) await sleep(200);
    },
    /** Every key still without its 201, sent again until it gets one. */
    async finish(base: string, deadline: number) {
      for (const [key, id] of keys)
        while (id === null && keys.get(key) === null && Date.now() < deadline) {
          if ((await sendOnce(base, key)) !== 201) await sleep(500);
        }
    },
  };
}

describe('never down: a database blip costs seconds, never the service (issue 27)', () => {
  it('termination storm (pg_terminate_backend of every backend every 100 ms for 8 s) under a mixed load with idempotent sends, against the all-in-one and the api, mcp, web and worker processes: 0 exits, every one ready within 10 s, the next send 201, every idempotent send exists exactly once', {
    timeout: 300_000,
  }, async () => {
    const { server, api, mcp, web, worker } = procs;
    const http = [server, api, mcp, web];
    await until(
      'every process ready',
      async () => (await Promise.all(http.map((p) => isReady(p.base)))).every(Boolean),
      120_000,
      250,
    );
    const owner = await createTestAccount(tdb.db, { credits: 100 });
    const auth = { authorization: `Bearer ${owner.key}` };
    const tpl = await status(`${api.base}/api/v1/templates`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Storm',
        documents: [{ file: b64(await plainPdf(1)) }],
        fields: [signatureField()],
      }),
    });
    expect(tpl.status).toBe(201);
    const sender = idempotentSender(owner, tpl.body.id);

    const others: { status: Status; code?: string }[] = [];
    let storming = true;
    const loop = async (fn: () => Promise<unknown>) => {
      while (storming) await fn();
    };
    const record = (p: Promise<{ status: Status; code?: string }>) =>
      p.then((r) => others.push({ status: r.status, ...(r.code ? { code: r.code } : {}) }));
    const mcpCall = () => status(`${mcp.base}/mcp`, mcpToolCall(owner.key, 'get_account'));
    const sendsUntil = () => Date.now() + (storming ? 60_000 : 0);
    const loaders = [
      loop(() => sender.send(server.base, sendsUntil())),
      loop(() => sender.send(api.base, sendsUntil())),
      loop(() => sender.send(api.base, sendsUntil())),
      loop(() => record(status(`${api.base}/api/v1/me`, { headers: auth }))),
      loop(() => record(status(`${server.base}/api/v1/me`, { headers: auth }))),
      loop(() => record(mcpCall())),
      loop(() => record(status(`${web.base}/readyz`))),
    ];
    await sleep(500);
    const ended = await terminationStorm(tdb.url, 8_000);
    storming = false;
    const stormEnded = Date.now();
    await Promise.all(loaders);

    // No process exited, and the storm did hit their connections.
    for (const p of [...http, worker])
      expect(p.alive(), `${p.name} exited:\n${p.output().slice(-2000)}`).toBe(true);
    expect(ended).toBeGreaterThan(50);
    // Ready again within 10 s of the storm's end.
    for (const p of http)
      await until(
        `${p.name} ready again`,
        () => isReady(p.base),
        Math.max(1, stormEnded + 10_000 - Date.now()),
        100,
      );
    // Whatever failed during the storm failed cleanly: never a dropped connection.
    expect([...sender.outcomes, ...others].filter((o) => o.status === 'network_error')).toEqual([]);
    for (const o of sender.outcomes.filter((x) => x.status !== 201))
      expect([
        { status: 500, code: 'internal_error' },
        { status: 409, code: 'idempotency_key_in_use' },
      ]).toContainEqual(o);
    expect(sender.outcomes.filter((o) => o.status === 201).length).toBeGreaterThan(0);

    // The next send works at once, and every key that has not had its 201 gets it now (a claim
    // whose release failed during the storm frees within its lease).
    const next = await status(`${api.base}/api/v1/signature_requests`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({ template_id: tpl.body.id, signers: [{ email: 'after@example.com' }] }),
    });
    expect(next.status).toBe(201);
    await sender.finish(api.base, Date.now() + 60_000);
    expect([...sender.keys.values()].filter((id) => id === null)).toEqual([]);

    // Exactly once: one request per key, and it is the one each key's 201 named.
    const rows = await tdb.db
      .selectFrom('signers')
      .select(['external_id', 'signature_request_id'])
      .where('external_id', 'in', [...sender.keys.keys()])
      .execute();
    const byKey = new Map<string, number[]>();
    for (const r of rows)
      byKey.set(r.external_id!, [...(byKey.get(r.external_id!) ?? []), r.signature_request_id]);
    const duplicates = [...byKey].filter(([, ids]) => ids.length !== 1);
    expect(duplicates).toEqual([]);
    for (const [key, id] of sender.keys) expect(byKey.get(key)).toEqual([id]);
    expect(byKey.size).toBe(sender.keys.size);
  });
});
