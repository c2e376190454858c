import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@esign/testing/db';
import { b64, plainPdf, signatureField } from '@esign/testing/pdfs';
import { type AppProcess, isReady, sleep, spawnApp, until } from '@esign/testing/processes';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount } from '../../../test/harness.ts';

// Issue 27, items 2, 4 and 5: `npm start` keeps the service up as a process manager would (restart
// on a crash with back-off, signals forwarded, no orphan), a crash leaves no claimed key or partial
// upload behind for long, and a SIGTERM loses no request.

const SECRET_KEY = 'supervisor-test-secret-0123456789abcdef01234';
let tdb: TestDatabase;
const cleanups: (() => Promise<void>)[] = [];
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c().catch(() => {});
});
afterAll(() => tdb?.drop());

const baseEnv = () => ({
  DATABASE_URL: tdb.url,
  SECRET_KEY,
  DATA_DIR: mkdtempSync(join(tmpdir(), 'esign-supervisor-')),
  RATE_LIMIT_PER_MINUTE: '1000000',
  LOG_LEVEL: 'info',
});

/** The supervisor's one child: the service process. */
function servicePid(supervisor: AppProcess): number | null {
  const pid = supervisor.child.pid;
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
  return children ? Number(children.split(' ')[0]) : null;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function startSupervised(env: Record<string, string> = {}): Promise<AppProcess> {
  const sup = await spawnApp('supervisor', { ...baseEnv(), ...env });
  cleanups.push(() => sup.stop());
  return sup;
}

describe('npm start supervises the service (issue 27.2)', () => {
  it('kill -9 of the service under the supervisor: it is started again and serves within 10 s; the restart is logged with the signal', {
    timeout: 180_000,
  }, async () => {
    const sup = await startSupervised();
    await until('supervised service ready', () => isReady(sup.base), 90_000, 250);
    const first = servicePid(sup)!;
    expect(first).toBeGreaterThan(0);
    const killedAt = Date.now();
    process.kill(first, 'SIGKILL');
    await until('serving again after kill -9', () => isReady(sup.base), 10_000, 100);
    const tookMs = Date.now() - killedAt;
    const second = servicePid(sup);
    expect(second).not.toBe(first);
    expect(sup.alive()).toBe(true);
    const restart = sup
      .output()
      .split('\n')
      .filter((l) => l.includes('"name":"supervisor"') && l.includes('restarting'))
      .map((l) => JSON.parse(l));
    expect(restart).toHaveLength(1);
    expect(restart[0]).toMatchObject({ signal: 'SIGKILL', restarts: 1, restartInMs: 1000 });
    expect(tookMs).toBeLessThan(10_000);
  });

  it('SIGTERM to the supervisor (twice, as npm passes its copy on) is forwarded once: the service drains and stops, and both exit 0; kill -9 of the supervisor leaves no orphan service', {
    timeout: 180_000,
  }, async () => {
    const sup = await startSupervised();
    await until('ready', () => isReady(sup.base), 90_000, 250);
    const service = servicePid(sup)!;
    // npm passes its own copy of the signal on too: the duplicate must not force the stop.
    sup.child.kill('SIGTERM');
    sup.child.kill('SIGTERM');
    expect(await sup.exited).toEqual({ code: 0, signal: null });
    expect(alive(service)).toBe(false);
    expect(sup.output()).toContain('"msg":"stopped"');
    expect(sup.output()).not.toContain('second signal');

    const orphaned = await startSupervised();
    await until('ready', () => isReady(orphaned.base), 90_000, 250);
    const child = servicePid(orphaned)!;
    orphaned.child.kill('SIGKILL');
    // Its IPC channel closed: the service stops as on SIGTERM rather than run on unsupervised.
    await until('the service of a killed supervisor stops', () => !alive(child), 20_000, 100);
  });

  it('a service that keeps failing at start (its port taken) is restarted with a doubling back-off, never in a tight loop', {
    timeout: 150_000,
  }, async () => {
    // Another program holds the port: the service exits as soon as it tries to listen.
    const holder = createServer();
    const port = await new Promise<number>((ok) =>
      holder.listen(0, '0.0.0.0', () => ok((holder.address() as AddressInfo).port)),
    );
    cleanups.push(() => new Promise<void>((ok) => holder.close(() => ok())));
    const sup = await startSupervised({ PORT: String(port) });
    const restarts = () =>
      sup
        .output()
        .split('\n')
        .filter((l) => l.includes('"name":"supervisor"') && l.includes('restarting'))
        .map(
          (l) => JSON.parse(l) as { time: number; restartInMs: number; exitCode: number; restarts: number },
        );
    await until('three restarts', () => restarts().length >= 3, 120_000, 100);
    const seen = restarts().slice(0, 3);
    // Each wait doubles (1 s, 2 s, 4 s), and each next failure comes only after the wait before it.
    expect(seen.map((r) => [r.restarts, r.restartInMs, r.exitCode])).toEqual([
      [1, 1000, 1],
      [2, 2000, 1],
      [3, 4000, 1],
    ]);
    for (let i = 1; i < seen.length; i++)
      expect(seen[i]!.time - seen[i - 1]!.time).toBeGreaterThanOrEqual(seen[i - 1]!.restartInMs);
    expect(sup.output()).toContain('EADDRINUSE');
    // Stopped between two runs (or during one): it stops, and leaves nobody on the port.
    sup.child.kill('SIGTERM');
    expect((await sup.exited).code).not.toBeNull();
  });
});

/**
 * A load balancer as an operator puts in front of scaled processes: round robin over the backends
 * whose /readyz answered 200 at the last check (every 200 ms), and a request whose connection was
 * refused goes to the next backend (nothing was sent).
 */
function balancer(backends: () => string[]) {
  const healthy = new Set<string>();
  let checking = true;
  const checks = (async () => {
    while (checking) {
      await Promise.all(
        backends().map(async (b) => ((await isReady(b)) ? healthy.add(b) : healthy.delete(b))),
      );
      await sleep(200);
    }
  })();
  let next = 0;
  return {
    /** Whether the last health check found `base` ready. */
    routesTo: (base: string) => healthy.has(base),
    async fetch(path: string, init: RequestInit): Promise<Response> {
      for (let attempt = 0; ; attempt++) {
        const pool = backends().filter((b) => healthy.has(b));
        const base = pool[next++ % Math.max(1, pool.length)] ?? backends()[0]!;
        try {
          return await fetch(`${base}${path}`, init);
        } catch (err) {
          const refused = (err as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED';
          if (!refused || attempt >= 5) throw err;
          healthy.delete(base);
        }
      }
    },
    async close() {
      checking = false;
      await checks;
    },
  };
}

describe('deploys lose nothing (issue 27.5)', () => {
  it('SIGTERM under load: /readyz turns 503 at once, requests in flight and during the drain succeed, the process exits 0; a rolling restart of two API processes behind a balancer fails no request', {
    timeout: 240_000,
  }, async () => {
    const owner = await createTestAccount(tdb.db, { credits: 100 });
    const env = { ...baseEnv(), SHUTDOWN_DELAY_SECONDS: '1', LOG_LEVEL: 'warn' };
    const apis: AppProcess[] = [await spawnApp('api', env), await spawnApp('api', env)];
    cleanups.push(() => Promise.all(apis.map((a) => a.stop())).then(() => {}));
    for (const a of apis) await until('api ready', () => isReady(a.base), 90_000, 250);
    const lb = balancer(() => apis.map((a) => a.base));
    cleanups.push(() => lb.close());
    await until('the balancer routes to both', () => apis.every((a) => lb.routesTo(a.base)), 10_000, 50);

    const outcomes: (number | string)[] = [];
    let loading = true;
    const load = Array.from({ length: 6 }, async () => {
      while (loading) {
        try {
          const res = await lb.fetch('/api/v1/me', { headers: { authorization: `Bearer ${owner.key}` } });
          outcomes.push(res.status);
          await res.arrayBuffer();
        } catch (err) {
          outcomes.push(String((err as { cause?: { code?: string } }).cause?.code ?? err));
        }
      }
    });
    await until('load under way', () => outcomes.filter((o) => o === 200).length >= 20, 30_000, 50);
    // Roll both: stop one (it drains first), start its successor, wait until it is ready, next.
    for (let i = 0; i < apis.length; i++) {
      const old = apis[i]!;
      old.child.kill('SIGTERM');
      await until(
        'readyz 503 while draining',
        async () => (await fetch(`${old.base}/readyz`)).status === 503,
        2_000,
        50,
      );
      expect(await old.exited).toEqual({ code: 0, signal: null });
      apis[i] = await spawnApp('api', env);
      await until('successor ready', () => isReady(apis[i]!.base), 90_000, 250);
      await until('the balancer routes to the successor', () => lb.routesTo(apis[i]!.base), 10_000, 50);
    }
    loading = false;
    await Promise.all(load);
    expect(outcomes.length).toBeGreaterThan(50);
    expect(outcomes.filter((o) => o !== 200)).toEqual([]);
  });
});

describe('a crash leaves nothing behind (issue 27.4)', () => {
  it('kill -9 of the API mid-request: the next process removes the partial upload at start, and a retry of the claimed Idempotency-Key runs within seconds (its lease lapses) instead of 409 for minutes', {
    timeout: 240_000,
  }, async () => {
    const owner = await createTestAccount(tdb.db, { credits: 100 });
    const env = { ...baseEnv(), LOG_LEVEL: 'warn' };
    const uploads = join(env.DATA_DIR, 'uploads');
    const first = await spawnApp('api', env);
    cleanups.push(() => first.stop());
    await until('api ready', () => isReady(first.base), 90_000, 250);
    const auth = { authorization: `Bearer ${owner.key}`, 'content-type': 'application/json' };

    // An upload that stops after 12 MB of its document (16 MB of base64): the file is on disk, the
    // request open.
    const chunk = Buffer.alloc(1024 * 1024, 'A');
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('{"documents":[{"file":"'));
      },
      pull(c) {
        if (sent >= 16) return new Promise(() => {}); // stalls here, as a client that went quiet
        sent += 1;
        c.enqueue(chunk);
      },
    });
    const stalled = fetch(`${first.base}/api/v1/templates`, {
      method: 'POST',
      headers: auth,
      body,
      duplex: 'half',
    } as RequestInit).catch(() => null);
    const partial = () => (existsSync(uploads) ? readdirSync(uploads) : []);
    await until(
      '12 MB of the upload on disk',
      () => partial().some((f) => statSync(join(uploads, f)).size >= 11 * 1024 * 1024),
      60_000,
      100,
    );

    // A send whose key is claimed when the process dies (a 40-page document keeps it running).
    const key = crypto.randomUUID();
    const tplBody = JSON.stringify({
      name: 'Crash',
      documents: [{ file: b64(await plainPdf(40)) }],
      fields: [signatureField()],
    });
    const post = (base: string) =>
      fetch(`${base}/api/v1/templates`, {
        method: 'POST',
        headers: { ...auth, 'idempotency-key': key },
        body: tplBody,
      })
        .then(async (r) => ({ status: r.status, body: (await r.json()) as any }))
        .catch(() => ({ status: 0, body: null }));
    const inFlight = post(first.base);
    await until(
      'the key claimed',
      async () =>
        (
          await tdb.db
            .selectFrom('idempotency_keys')
            .select('status')
            .where('key', '=', key)
            .executeTakeFirst()
        )?.status === 'running',
      60_000,
      20,
    );
    first.child.kill('SIGKILL');
    await first.exited;
    await Promise.all([stalled, inFlight]);
    const killedAt = Date.now();
    const left = partial();
    expect(left.length).toBeGreaterThan(0);

    const second = await spawnApp('api', env);
    cleanups.push(() => second.stop());
    await until('api ready again', () => isReady(second.base), 90_000, 250);
    await until(
      'the partial upload removed',
      () => left.every((f) => !existsSync(join(uploads, f))),
      10_000,
      100,
    );

    const answers: number[] = [];
    let done: { status: number; body: any } | null = null;
    while (!done && Date.now() - killedAt < 40_000) {
      const r = await post(second.base);
      answers.push(r.status);
      if (r.status === 201) done = r;
      else await sleep(500);
    }
    expect(done?.status, `answers: ${answers.join(',')}`).toBe(201);
    // Until the lease lapsed the retries were told to wait (409), never run twice.
    expect(answers.filter((s) => s !== 201 && s !== 409)).toEqual([]);
    expect(Date.now() - killedAt).toBeLessThan(30_000);
    const made = await tdb.db.selectFrom('templates').select('id').where('name', '=', 'Crash').execute();
    expect(made.map((t) => t.id)).toEqual([done!.body.id]);
  });
});
