// What the HTTP benchmarks share: starting a process that serves HTTP, stopping it, and a
// closed-loop load of keep-alive connections each sending its next request when the last answered.
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { NODE_TS, PRODUCTION_ENV } from './util.ts';

const ROOT = join(import.meta.dirname, '..');
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;

/** Starts a child and resolves with its base URL once `readyPath` answers below 500. */
export async function startProcess(
  argv: string[],
  env: Record<string, string>,
  port: number,
  readyPath: string,
): Promise<{ child: ChildProcess; base: string; startMs: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, argv, {
    cwd: ROOT,
    env: {
      ...PRODUCTION_ENV,
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      ...env,
      // e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof` to profile what a bench starts.
      ...(process.env.BENCH_CHILD_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_CHILD_NODE_OPTIONS } : {}),
      PORT: String(port),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 1200; i++) {
    if (child.exitCode !== null) throw new Error(`${argv.join(' ')} exited with ${child.exitCode}`);
    const ok = await fetch(`${base}${readyPath}`)
      .then((r) => r.status < 500)
      .catch(() => false);
    if (ok) return { child, base, startMs: performance.now() - started };
    await sleep(100);
  }
  throw new Error(`${argv.join(' ')} did not become ready`);
}

/**
 * The service's production start (`apps/server`: API, MCP, web and worker in one process) on a
 * bench's scratch database, with the rate limit out of the way and PUBLIC_URL its own address.
 */
export function startService(o: { databaseUrl: string; dataDir: string; secretKey: string; port: number }) {
  return startProcess(
    [...NODE_TS, 'apps/server/src/main.ts'],
    {
      DATABASE_URL: o.databaseUrl,
      DATA_DIR: o.dataDir,
      SECRET_KEY: o.secretKey,
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_MINUTE: '100000000',
      PUBLIC_URL: `http://127.0.0.1:${o.port}`,
    },
    o.port,
    '/readyz',
  );
}

/** The floor (bench/floor-server.ts: bare `node:http` + `pg`) on the same database. */
export function startFloor(databaseUrl: string, port: number) {
  return startProcess([...NODE_TS, 'bench/floor-server.ts'], { DATABASE_URL: databaseUrl }, port, '/');
}

/**
 * CPU time (user + system, ms) a process has used so far, from /proc (Linux; 0 elsewhere): what a
 * request costs a process, which the machine's other load changes far less than req/s.
 */
export function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}
/** USER_HZ: /proc counts CPU time in 1/100 s on Linux. */
const CLOCK_TICKS = 100;

export function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

export interface Load {
  reqPerSec: number;
  p50: number;
  p99: number;
  /** Answers that were not the expected status (or no answer). */
  errors: number;
  /** The first unexpected answer, to say why. */
  firstError?: string;
}

/** One request on a keep-alive agent: its status and body once the whole body arrived. */
function send(
  agent: Agent,
  url: string,
  o: { method: string; key: string; body?: string },
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bearer ${o.key}` };
    if (o.body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(o.body));
    }
    const req = request(url, { agent, method: o.method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(o.body);
  });
}

export interface LoadSpec {
  base: string;
  path: string;
  method: 'GET' | 'POST';
  key: string;
  connections: number;
  seconds: number;
  expect: number;
  /** The body connection `i` sends (POST). */
  body?: (connection: number) => unknown;
}

/** `connections` keep-alive connections, each sending its next request when the last one answered. */
export async function load(spec: LoadSpec): Promise<Load> {
  const agent = new Agent({ keepAlive: true, maxSockets: spec.connections });
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const end = performance.now() + spec.seconds * 1000;
  const url = `${spec.base}${spec.path}`;
  const loop = async (i: number) => {
    const body = spec.body ? JSON.stringify(spec.body(i)) : undefined;
    while (performance.now() < end) {
      const t0 = performance.now();
      const res = await send(agent, url, { method: spec.method, key: spec.key, body }).catch(
        (err: Error) => ({
          status: 0,
          text: err.message,
        }),
      );
      if (res.status === spec.expect) latencies.push(performance.now() - t0);
      else {
        errors++;
        firstError ??= `${res.status} ${res.text.slice(0, 200)}`;
      }
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: spec.connections }, (_, i) => loop(i)));
  const elapsed = (performance.now() - t0) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    reqPerSec: Math.round(latencies.length / elapsed),
    p50: Math.round(percentile(latencies, 50)),
    p99: Math.round(percentile(latencies, 99)),
    errors,
    ...(firstError ? { firstError } : {}),
  };
}
