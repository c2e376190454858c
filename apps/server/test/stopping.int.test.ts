import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@esign/testing/db';
import { freePort, isReady, spawnApp, until } from '@esign/testing/processes';
import { ROOT } from '@esign/testing/spawn';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

// Issue 41 item 6: stopping and starting. `npm start` stops cleanly on SIGTERM to any process of
// its tree; a bad setting stops the process at once, naming it, with status 78 that nobody
// restarts; TRUST_PROXY takes any valid CIDR; the worker answers /healthz and /readyz.

const SECRET_KEY = 'stopping-test-secret-0123456789abcdef0123456';
const CONFIG_ERROR = 78;
let tdb: TestDatabase;
const cleanups: (() => Promise<void> | void)[] = [];
beforeAll(async () => {
  tdb = await createTestDatabase();
});
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await Promise.resolve(c()).catch(() => {});
});
afterAll(() => tdb?.drop());

const baseEnv = () => ({
  DATABASE_URL: tdb.url,
  SECRET_KEY,
  DATA_DIR: mkdtempSync(join(tmpdir(), 'esign-stopping-')),
  RATE_LIMIT_PER_MINUTE: '1000000',
  LOG_LEVEL: 'info',
  SHUTDOWN_DELAY_SECONDS: '0',
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    // A zombie is gone for our purpose (its parent has not reaped it yet).
    return !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return false;
  }
}

/** A process and all its descendants (Linux /proc), with their command lines. */
function processTree(pid: number): { pid: number; cmd: string }[] {
  let cmd = '';
  let children: string[] = [];
  try {
    cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  } catch {
    // gone meanwhile
  }
  return [{ pid, cmd }, ...children.flatMap((c) => processTree(Number(c)))];
}

/** True when nothing listens on `port` any more (it can be bound again). */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '0.0.0.0', () => s.close(() => resolve(true)));
  });
}

/** `npm start` as an operator runs it, in the repository, on the test database. */
async function npmStart(): Promise<{ child: ChildProcess; port: number; output: () => string }> {
  const port = await freePort();
  const child = spawn('npm', ['start'], {
    cwd: ROOT,
    env: {
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
      HOME: process.env.HOME ?? '/tmp',
      ...baseEnv(),
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (d) => (log += d));
  child.stderr?.on('data', (d) => (log += d));
  cleanups.push(() => {
    // Whatever a failed test left: every process of this tree, by its pid.
    for (const p of processTree(child.pid!).reverse()) if (alive(p.pid)) process.kill(p.pid, 'SIGKILL');
  });
  return { child, port, output: () => log };
}

describe('npm start stops cleanly (issue 41.6)', () => {
  for (const target of ['npm', 'supervisor', 'service'] as const) {
    it(`SIGTERM to ${target === 'npm' ? "npm's process" : `the ${target}`} of npm start: every process of the tree ends and the port is free`, {
      timeout: 240_000,
    }, async () => {
      const run = await npmStart();
      await until('npm start ready', () => isReady(`http://127.0.0.1:${run.port}`), 180_000, 250);
      const tree = processTree(run.child.pid!);
      const supervisor = tree.find((p) => p.cmd.includes('apps/server/src/supervisor.ts'));
      const service = tree.find((p) => p.cmd.includes('apps/server/src/main.ts'));
      expect(supervisor, JSON.stringify(tree)).toBeDefined();
      expect(service, JSON.stringify(tree)).toBeDefined();
      const pid = { npm: run.child.pid!, supervisor: supervisor!.pid, service: service!.pid }[target];
      process.kill(pid, 'SIGTERM');
      await until(
        'every process of the tree gone',
        () => tree.every((p) => !alive(p.pid)),
        30_000,
        100,
      ).catch((err: Error) => {
        throw new Error(
          `${err.message}; left: ${JSON.stringify(tree.filter((p) => alive(p.pid)))}\n${run.output()}`,
        );
      });
      expect(await portFree(run.port)).toBe(true);
      // The service stopped its way (it drained and said so), not killed.
      expect(run.output()).toContain('"msg":"stopped"');
    });
  }
});

describe('a bad configuration value stops the process, and nobody restarts it (issue 41.6)', () => {
  const bad: [string, Record<string, string>][] = [
    ['RATE_LIMIT_PER_MINUTE', { RATE_LIMIT_PER_MINUTE: 'not-a-number' }],
    [
      'TWILIO_ACCOUNT_SID',
      {
        SMS_PROVIDER: 'twilio',
        TWILIO_ACCOUNT_SID: 'AC-not-a-sid',
        TWILIO_AUTH_TOKEN: 'x',
        TWILIO_FROM: '+15005550006',
      },
    ],
    ['TRUST_PROXY', { TRUST_PROXY: '10.0.0.0/33' }],
  ];
  for (const [name, env] of bad) {
    it(`${name}=${env[name]}: the service exits at once with status 78 naming ${name}; the supervisor of npm start exits 78 too, without a restart`, {
      timeout: 60_000,
    }, async () => {
      const started = Date.now();
      const sup = await spawnApp('supervisor', { ...baseEnv(), ...env });
      cleanups.push(() => sup.stop());
      expect(await sup.exited, sup.output()).toEqual({ code: CONFIG_ERROR, signal: null });
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(sup.output()).toContain(`${name}:`);
      expect(sup.output()).toContain('not restarting it');
      expect(sup.output()).not.toContain('exited unexpectedly; restarting it');
      expect(sup.output().match(/Invalid configuration/g)).toHaveLength(1);
    });
  }

  it('TRUST_PROXY with 0.0.0.0/0, ::/0 and an IPv6 CIDR is valid: the service starts and serves', {
    timeout: 120_000,
  }, async () => {
    const api = await spawnApp('api', { ...baseEnv(), TRUST_PROXY: '0.0.0.0/0, ::/0, 2001:db8::/32' });
    cleanups.push(() => api.stop());
    await until('api ready', () => isReady(api.base), 90_000, 250);
    expect(api.alive(), api.output()).toBe(true);
  });
});

describe('the worker process (issue 41.6)', () => {
  it('answers /healthz and /readyz on PORT like the other processes; on SIGTERM /readyz turns 503, then it exits 0 and frees the port', {
    timeout: 120_000,
  }, async () => {
    const worker = await spawnApp('worker', { ...baseEnv(), SHUTDOWN_DELAY_SECONDS: '2' });
    cleanups.push(() => worker.stop());
    await until('worker ready', () => isReady(worker.base), 90_000, 250);
    const health = await fetch(`${worker.base}/healthz`);
    expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }]);
    const ready = await fetch(`${worker.base}/readyz`);
    expect([ready.status, await ready.json()]).toEqual([200, { status: 'ready' }]);
    worker.child.kill('SIGTERM');
    await until(
      'readyz 503 while stopping',
      async () => (await fetch(`${worker.base}/readyz`)).status === 503,
      2_000,
      50,
    );
    expect(await worker.exited).toEqual({ code: 0, signal: null });
    expect(await portFree(Number(new URL(worker.base).port))).toBe(true);
  });
});
