import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AppProcess, isReady, sleep, spawnApp, until } from '@esign/testing/processes';
import { esign } from '@esign/testing/spawn';
import { afterAll, describe, expect, it } from 'vitest';

// Issue 41 item 5: a frozen database (every PostgreSQL process stopped, as a stalled disk, a VM
// pause or a lock-up do) must not hold requests for the whole freeze. /readyz answers 503 within a
// second, API calls answer 503 with Retry-After within the configured timeouts, and the process
// recovers by itself once the database runs again. The database is the embedded one this test's
// own all-in-one server starts (never a server others share).

const STATEMENT_S = 3;
const ACQUIRE_S = 2;
const FREEZE_MS = 20_000;

/** The embedded cluster's folder under DATA_DIR (packages/db embedded.ts: db, or db-location). */
function clusterDir(dataDir: string): string {
  const moved = join(dataDir, 'db-location');
  return existsSync(moved) ? readFileSync(moved, 'utf8').trim() : join(dataDir, 'db');
}

/** A process and all its descendants (Linux /proc). */
function processTree(pid: number): number[] {
  const children = (() => {
    try {
      return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    } catch {
      return [];
    }
  })();
  return [pid, ...children.flatMap((c) => processTree(Number(c)))];
}

/** The postmaster of this cluster and every backend and helper it forked. */
function postgresProcesses(dir: string): number[] {
  const postmaster = Number(readFileSync(join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  // Only ever the cluster this test made: its postmaster runs on that very folder.
  const cmdline = readFileSync(`/proc/${postmaster}/cmdline`, 'utf8');
  if (!cmdline.includes(dir))
    throw new Error(`pid ${postmaster} is not the postmaster of ${dir}: ${cmdline}`);
  return processTree(postmaster);
}

interface Answer {
  status: number;
  ms: number;
  code?: string;
  retryAfter: string | null;
}

async function timed(url: string, init: RequestInit = {}): Promise<Answer> {
  const started = performance.now();
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(60_000) });
  const body = (await res.json().catch(() => null)) as { error?: { code?: string } } | null;
  return {
    status: res.status,
    ms: Math.round(performance.now() - started),
    code: body?.error?.code,
    retryAfter: res.headers.get('retry-after'),
  };
}

let app: AppProcess | undefined;
let dataDir: string | undefined;
let stopped: number[] = [];
afterAll(async () => {
  // Never leave the cluster stopped, whatever failed.
  for (const pid of stopped) {
    try {
      process.kill(pid, 'SIGCONT');
    } catch {
      // gone
    }
  }
  await app?.stop(20_000);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe.runIf(process.env.ESIGN_TEST_DB === 'embedded')('a frozen database (issue 41.5)', () => {
  it('every PostgreSQL process stopped (SIGSTOP) for 20 s: /readyz answers 503 within 1 s, API calls answer 503 internal_error with Retry-After within the statement and acquire timeouts, and after SIGCONT everything serves again by itself', {
    timeout: 240_000,
  }, async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'esign-freeze-'));
    const env = {
      DATA_DIR: dataDir,
      DATABASE_STATEMENT_TIMEOUT_SECONDS: String(STATEMENT_S),
      DATABASE_ACQUIRE_TIMEOUT_SECONDS: String(ACQUIRE_S),
      RATE_LIMIT_PER_MINUTE: '1000000',
    };
    app = await spawnApp('server', env);
    await until('all-in-one ready', () => isReady(app!.base), 120_000, 250);
    const cli = { DATA_DIR: dataDir };
    const made = await esign(['account', 'create', '--email', 'freeze@example.com', '--json'], cli);
    expect(made.code, made.stderr).toBe(0);
    const { key } = JSON.parse(
      (await esign(['key', 'create', '--email', 'freeze@example.com', '--json'], cli)).stdout,
    );
    const me = () => timed(`${app!.base}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } });
    expect((await me()).status).toBe(200);

    // A steady load from four clients through the freeze and after it.
    const seen: (Answer & { at: number })[] = [];
    let loading = true;
    const load = Array.from({ length: 4 }, async () => {
      while (loading) {
        const at = Date.now();
        seen.push({ ...(await me()), at });
        await sleep(100);
      }
    });
    await sleep(1_000);

    const dir = clusterDir(dataDir);
    stopped = postgresProcesses(dir);
    expect(stopped.length).toBeGreaterThan(3); // the postmaster, its helpers and our backends
    for (const pid of stopped) process.kill(pid, 'SIGSTOP');
    const frozenAt = Date.now();

    const readyz: Answer[] = [];
    const calls: Answer[] = [];
    while (Date.now() - frozenAt < FREEZE_MS - 4_000) {
      readyz.push(await timed(`${app.base}/readyz`));
      calls.push(await me());
    }
    // Still frozen here: the last checks.
    await sleep(Math.max(0, frozenAt + FREEZE_MS - Date.now()));
    for (const pid of stopped) process.kill(pid, 'SIGCONT');
    const thawedAt = Date.now();
    stopped = [];

    await until('readyz 200 again', () => isReady(app!.base), 30_000, 100);
    const readyAfterMs = Date.now() - thawedAt;
    await sleep(2_000);
    loading = false;
    await Promise.all(load);
    const recovered = await me();

    const during = seen.filter((s) => s.at > frozenAt + 100 && s.at + s.ms < thawedAt);
    const report = JSON.stringify({
      readyz: readyz.map((r) => [r.status, r.ms]),
      calls: calls.map((c) => [c.status, c.ms]),
      during: during.map((c) => [c.status, c.ms]),
      readyAfterMs,
    });
    console.log(`database freeze: ${report}`);
    expect(app.alive(), app.output()).toBe(true);

    expect(readyz.length, report).toBeGreaterThan(2);
    for (const r of readyz) {
      expect(r.status, report).toBe(503);
      expect(r.ms, report).toBeLessThan(1_000);
    }
    // A request waits for a connection (ACQUIRE_S at most, twice when its new connection is opened
    // after a wait) or for one statement (STATEMENT_S): never for the freeze.
    const bound = (STATEMENT_S + 2 * ACQUIRE_S) * 1000 + 1_000;
    expect(calls.length + during.length, report).toBeGreaterThan(8);
    for (const c of [...calls, ...during]) {
      expect(c, report).toMatchObject({ status: 503, code: 'internal_error', retryAfter: '5' });
      expect(c.ms, report).toBeLessThan(bound);
    }

    // Recovered by itself: ready, serving, and the load's last answers all 200.
    expect(readyAfterMs, report).toBeLessThan(STATEMENT_S * 1000 + 2_000);
    expect(recovered.status, report).toBe(200);
    const last = seen.filter((s) => s.at > thawedAt + readyAfterMs + 500);
    expect(last.length, report).toBeGreaterThan(4);
    expect(
      last.filter((s) => s.status !== 200),
      report,
    ).toEqual([]);
  });
});
