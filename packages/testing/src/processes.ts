import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import pg from 'pg';
import { COMPILE_CACHE, ROOT } from './spawn.ts';

/** A real process of ours (apps/<name>/src/main.ts) started the way operators start it. */
export interface AppProcess {
  name: string;
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` for the HTTP processes. */
  base: string;
  /** Everything it printed (for assertion messages). */
  output(): string;
  /** True while it runs: it neither exited nor was killed. */
  alive(): boolean;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it is gone. */
  stop(graceMs?: number): Promise<void>;
  /** Settles when the process has exited, with its exit code or the signal that ended it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? ok(addr.port) : fail(new Error('no port'))));
    });
  });
}

/** Each process entry; `supervisor` is what `npm start` runs (apps/server/src/supervisor.ts). */
const ENTRIES = {
  api: 'apps/api/src/main.ts',
  mcp: 'apps/mcp/src/main.ts',
  web: 'apps/web/src/main.ts',
  worker: 'apps/worker/src/main.ts',
  server: 'apps/server/src/main.ts',
  supervisor: 'apps/server/src/supervisor.ts',
};

export async function spawnApp(name: keyof typeof ENTRIES, env: Record<string, string>): Promise<AppProcess> {
  const port = env.PORT ?? String(await freePort());
  const child = spawn(process.execPath, [join(ROOT, ENTRIES[name])], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      NODE_COMPILE_CACHE: COMPILE_CACHE,
      LOG_LEVEL: 'warn',
      // Tests stop processes with SIGTERM: no pause for a load balancer unless a test sets one.
      SHUTDOWN_DELAY_SECONDS: '0',
      ...env,
      PORT: port,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout?.on('data', (d) => (log += d));
  child.stderr?.on('data', (d) => (log += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    name,
    child,
    base: `http://127.0.0.1:${port}`,
    output: () => log,
    exited,
    alive: () => child.exitCode === null && child.signalCode === null,
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Polls `check` until it holds; throws naming `what` after `timeoutMs`. */
export async function until(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs: number,
  everyMs = 100,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (
    !(await Promise.resolve()
      .then(check)
      .catch(() => false))
  ) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(everyMs);
  }
}

/** GET /readyz answers 200. */
export async function isReady(base: string): Promise<boolean> {
  return fetch(`${base}/readyz`).then(
    (r) => r.ok,
    () => false,
  );
}

/**
 * Terminates, server-side, every backend of database `url` whose application_name is one of
 * `names`, the way an operator (or a failover) would: `pg_terminate_backend`. Returns how many it
 * ended. Other test files' databases on the same server are left alone.
 */
export async function terminateBackends(url: string, names: string[]): Promise<number> {
  const client = new pg.Client({ connectionString: url, application_name: 'esign-test-terminator' });
  client.on('error', () => {});
  await client.connect();
  try {
    const { rows } = await client.query<{ ended: boolean }>(
      `select pg_terminate_backend(pid) as ended from pg_stat_activity
       where datname = current_database() and application_name = any($1) and pid <> pg_backend_pid()`,
      [names],
    );
    return rows.filter((r) => r.ended).length;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * The TCP ports process `pid` listens on (Linux: its socket descriptors matched against the
 * kernel's listening sockets in /proc/net/tcp and tcp6), sorted.
 */
export function listeningPorts(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      // closed meanwhile
    }
  }
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // local_address is ADDR:PORT in hex; state 0A is LISTEN; column 9 is the inode.
      if (cols[3] === '0A' && cols[9] && inodes.has(cols[9]))
        ports.add(Number.parseInt(cols[1]!.split(':')[1]!, 16));
    }
  }
  return [...ports].sort((a, b) => a - b);
}

/** The request an MCP client sends for one `tools/call` over Streamable HTTP, with an API key. */
export function mcpToolCall(key: string, name: string, args: Record<string, unknown> = {}): RequestInit {
  return {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  };
}
