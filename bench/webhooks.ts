// Webhook delivery benchmark (issue #5): commit-to-receipt latency (p50/p99) and sustained
// deliveries per second, for one and for two worker processes, against a loopback receiver; and
// (issue 31) the same drain by a bare sender (bench/webhooks-floor.ts) in alternating rounds, with
// the CPU time each process spent per delivery.
//
//   pnpm exec tsx bench/webhooks.ts [--latency-events 200] [--rate 20] [--backlog 2000]
//                                   [--workers 1,2] [--concurrency 4] [--rounds 3]
//
// Workers are real `apps/worker` processes (the production loop: batch claims with SKIP LOCKED and
// batch records, WEBHOOK_CONCURRENCY delivery slots, LISTEN/NOTIFY wake-ups, 500 ms idle poll). Events are committed by this process through the production
// path (recordEvent + the webhook fan-out, one transaction each); the receiver is in this process
// too, so commit and receipt times come from one clock. The database is DATABASE_URL's server (a
// scratch database is created and dropped) or a throwaway embedded PostgreSQL.
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseConfig } from '@esign/core';
import { createAccount, createWebhookEndpoint } from '@esign/core/operator';
import { recordEvent } from '@esign/core/testing';
import { createDb, type Db, migrateToLatest } from '@esign/db';
import pg from 'pg';
import { verifyWebhook } from '../packages/webhooks/src/index.ts';
import { NODE_TS, PRODUCTION_ENV, scratchDatabase } from './util.ts';

const ROOT = join(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: {
    'latency-events': { type: 'string', default: '200' },
    rate: { type: 'string', default: '20' },
    backlog: { type: 'string', default: '2000' },
    workers: { type: 'string', default: '1,2' },
    concurrency: { type: 'string', default: '4' },
    rounds: { type: 'string', default: '3' },
    'warmup-share': { type: 'string', default: '0.25' },
    'webhook-concurrency': { type: 'string', default: '64' },
    // Issue 43: each round also drains the backlog with graphile-worker (bench/webhooks-graphile.ts).
    graphile: { type: 'boolean', default: false },
  },
});
const rounds = Number(args.rounds);
const warmupShare = Number(args['warmup-share']);
const webhookConcurrency = Number(args['webhook-concurrency']);
const latencyEvents = Number(args['latency-events']);
const rate = Number(args.rate);
const backlog = Number(args.backlog);
const workerCounts = args.workers!.split(',').map(Number);
const concurrency = Number(args.concurrency);

const SECRET_KEY = 'bench-webhooks-server-secret-0123456789abcdef';
const dataDir = mkdtempSync(join(tmpdir(), 'esign-bench-webhooks-'));
chmodSync(dataDir, 0o755); // as root, PostgreSQL runs as `postgres` and must enter it
const nowMs = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- database

// ---------------------------------------------------------------- receiver

interface Receipt {
  at: number;
  verified: boolean;
}
const receipts = new Map<string, Receipt>();
const committed = new Map<string, number>();
let secret = '';
let duplicates = 0;
const receiver = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const at = nowMs();
    const body = Buffer.concat(chunks).toString('utf8');
    const id = (JSON.parse(body) as { id: string }).id;
    if (receipts.has(id)) duplicates++;
    receipts.set(id, {
      at,
      verified: verifyWebhook(secret, req.headers['x-esign-signature'] as string, body),
    });
    res.writeHead(204).end();
  });
});

async function waitForReceipts(ids: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (ids.some((id) => !receipts.has(id))) {
    if (Date.now() > deadline) {
      throw new Error(
        `timed out: ${ids.filter((id) => !receipts.has(id)).length} of ${ids.length} not received`,
      );
    }
    await sleep(5);
  }
}

// ---------------------------------------------------------------- workers

function startWorkers(n: number, dbUrl: string): ChildProcess[] {
  return Array.from({ length: n }, () =>
    spawn(process.execPath, [...NODE_TS, join(ROOT, 'apps/worker/src/main.ts')], {
      cwd: ROOT,
      env: {
        ...PRODUCTION_ENV,
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        DATABASE_URL: dbUrl,
        // Its /healthz and /readyz on a port of its own choosing (several workers on one host).
        PORT: '0',
        DATA_DIR: dataDir,
        SECRET_KEY,
        WEBHOOK_ALLOW_PRIVATE: 'true',
        LOG_LEVEL: 'warn',
        WORKER_CONCURRENCY: String(concurrency),
        // As many attempts in flight as the floor claims at once (64), unless told otherwise.
        WEBHOOK_CONCURRENCY: String(webhookConcurrency),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    }),
  );
}

async function stopWorkers(workers: ChildProcess[]): Promise<void> {
  await Promise.all(
    workers.map(
      (w) =>
        new Promise<void>((resolve) => {
          if (w.exitCode !== null || w.signalCode !== null) return resolve();
          w.once('exit', () => resolve());
          w.kill('SIGTERM');
        }),
    ),
  );
}

// ---------------------------------------------------------------- events

type Emit = () => Promise<string>;

function emitter(db: Db, scope: { accountId: number; environment: 'live' }, endpointId: number): Emit {
  return async () => {
    const event = await db.transaction().execute((tx) =>
      recordEvent(tx, scope, {
        type: 'signer.signed',
        objectType: 'webhook_endpoint',
        objectId: endpointId,
        now: new Date(),
      }),
    );
    committed.set(event.id, nowMs());
    return event.id;
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;

interface Drain {
  deliveries: number;
  seconds: number;
  per_second: number;
  /** CPU time (user + system) of the sending process(es) from the first receipt to the last, per delivery. */
  cpu_ms_per_delivery: number;
  /** Transactions (each statement outside a transaction is one) the database committed, per delivery. */
  statements_per_delivery: number;
}

/**
 * Transactions committed or rolled back in the scratch database so far (pg_stat_database). Read on
 * a connection of its own, after the connections whose statements are counted have closed (a
 * backend reports its statistics when it exits, and otherwise at most once a second).
 */
async function transactions(url: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query<{ n: string }>(
      'select (xact_commit + xact_rollback)::text as n from pg_stat_database where datname = current_database()',
    );
    return Number(rows[0]!.n);
  } finally {
    await c.end();
  }
}

/** CPU time (ms, user + system) a process has used so far, from /proc (Linux). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command; in clock ticks (100/s).
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

function startFloor(n: number, dbUrl: string): ChildProcess[] {
  return Array.from({ length: n }, () =>
    spawn(process.execPath, [...NODE_TS, join(ROOT, 'bench/webhooks-floor.ts')], {
      cwd: ROOT,
      env: {
        ...PRODUCTION_ENV,
        PATH: process.env.PATH ?? '',
        DATABASE_URL: dbUrl,
        WEBHOOK_SECRET: secret,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    }),
  );
}

/** The same deliveries carried by graphile-worker (issue 43): bench/webhooks-graphile.ts. */
function startGraphile(n: number, dbUrl: string): ChildProcess[] {
  return Array.from({ length: n }, () =>
    spawn(process.execPath, [...NODE_TS, join(ROOT, 'bench/webhooks-graphile.ts')], {
      cwd: ROOT,
      env: {
        ...PRODUCTION_ENV,
        PATH: process.env.PATH ?? '',
        DATABASE_URL: dbUrl,
        DATA_DIR: dataDir,
        SECRET_KEY,
        GRAPHILE_CONCURRENCY: String(webhookConcurrency),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    }),
  );
}

/** Commits `backlog` events with no sender running, starts the senders and times the drain. */
async function drain(dbUrl: string, start: () => ChildProcess[]): Promise<Drain> {
  const backlogIds: string[] = [];
  // Its own connection, closed before the count starts.
  const db = createDb(dbUrl, { max: 1 });
  for (let i = 0; i < backlog; i += 100) {
    const batch = Math.min(100, backlog - i);
    await db.transaction().execute(async (tx) => {
      for (let j = 0; j < batch; j++) {
        const event = await recordEvent(tx, scopeFor, {
          type: 'signer.signed',
          objectType: 'webhook_endpoint',
          objectId: endpointIdFor,
          now: new Date(),
        });
        backlogIds.push(event.id);
      }
    });
  }
  await db.destroy();
  await sleep(500);
  const xactStart = await transactions(dbUrl);
  const senders = start();
  let result: Omit<Drain, 'statements_per_delivery'>;
  try {
    // Start-up and warm-up are not counted: CPU and time from the `skip`-th receipt to the last
    // (a process just started compiles its code paths during its first few hundred deliveries).
    const skip = Math.floor(backlog * warmupShare);
    const deadline = Date.now() + 600_000;
    const count = () => backlogIds.filter((id) => receipts.has(id)).length;
    let got = count();
    while (got < Math.max(1, skip)) {
      if (Date.now() > deadline) throw new Error(`timed out: ${got} of ${skip} warm-up deliveries`);
      await sleep(2);
      got = count();
    }
    const cpuStart = senders.reduce((sum, p) => sum + cpuMs(p.pid!), 0);
    await waitForReceipts(backlogIds, 600_000);
    const cpuEnd = senders.reduce((sum, p) => sum + cpuMs(p.pid!), 0);
    const times = backlogIds.map((id) => receipts.get(id)!.at).sort((a, b) => a - b);
    const measured = backlog - Math.max(1, got) + 1;
    const seconds = (times.at(-1)! - times[backlog - measured]!) / 1000;
    result = {
      deliveries: measured,
      seconds: Number(seconds.toFixed(2)),
      per_second: Math.round(measured / seconds),
      cpu_ms_per_delivery: Number(((cpuEnd - cpuStart) / measured).toFixed(3)),
    };
  } finally {
    await stopWorkers(senders);
  }
  await sleep(500);
  // Start-up and shutdown statements included (a few per process; the first count's own read: 1).
  const statements = (await transactions(dbUrl)) - xactStart - 1;
  return { ...result, statements_per_delivery: Number((statements / backlog).toFixed(3)) };
}

/** One worker count's measurements: latency at a steady rate, then each throughput round. */
interface Result {
  workers: number;
  latency: { events: number; rate_per_s: number; p50_ms: number; p99_ms: number; max_ms: number };
  throughput: Drain;
  rounds: { service: Drain; floor: Drain; graphile?: Drain }[];
}

async function run(workerCount: number, dbUrl: string, emit: Emit): Promise<Result> {
  const workers = startWorkers(workerCount, dbUrl);
  const latencies: number[] = [];
  try {
    // Warm-up: every worker process is up and polling once one event round-trips per worker.
    const warm = [];
    for (let i = 0; i < workerCount * 4; i++) warm.push(await emit());
    await waitForReceipts(warm, 120_000);

    // Latency: events committed one by one at a steady rate, as a live system would.
    const ids: string[] = [];
    const interval = 1000 / rate;
    const start = nowMs();
    for (let i = 0; i < latencyEvents; i++) {
      const due = start + i * interval;
      const wait = due - nowMs();
      if (wait > 0) await sleep(wait);
      ids.push(await emit());
    }
    await waitForReceipts(ids, 120_000);
    latencies.push(...ids.map((id) => receipts.get(id)!.at - committed.get(id)!).sort((a, b) => a - b));
  } finally {
    await stopWorkers(workers);
  }

  // Throughput: a backlog committed while no sender runs, then drained; the service's workers and
  // the floor (as many processes) alternate, so a change of the machine's load moves both alike.
  const pairs: { service: Drain; floor: Drain; graphile?: Drain }[] = [];
  for (let r = 0; r < Math.max(1, rounds); r++) {
    process.stderr.write(`  round ${r + 1}: service ...`);
    const service = await drain(dbUrl, () => startWorkers(workerCount, dbUrl));
    process.stderr.write(` ${service.per_second}/s; floor ...`);
    const floor = await drain(dbUrl, () => startFloor(workerCount, dbUrl));
    process.stderr.write(` ${floor.per_second}/s`);
    if (args.graphile) {
      process.stderr.write('; graphile-worker ...');
      const graphile = await drain(dbUrl, () => startGraphile(workerCount, dbUrl));
      process.stderr.write(` ${graphile.per_second}/s`);
      pairs.push({ service, floor, graphile });
    } else pairs.push({ service, floor });
    process.stderr.write('\n');
  }
  return {
    workers: workerCount,
    latency: {
      events: latencies.length,
      rate_per_s: rate,
      p50_ms: Math.round(percentile(latencies, 50)),
      p99_ms: Math.round(percentile(latencies, 99)),
      max_ms: Math.round(latencies.at(-1) ?? 0),
    },
    throughput: pairs[0]!.service,
    rounds: pairs,
  };
}

// ---------------------------------------------------------------- main

let scopeFor: { accountId: number; environment: 'live' };
let endpointIdFor: number;

const database = await scratchDatabase(join(dataDir, 'pg'));
const db = createDb(database.url, { max: 5 });
try {
  await migrateToLatest(db);
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  const config = parseConfig({ DATA_DIR: dataDir, SECRET_KEY, WEBHOOK_ALLOW_PRIVATE: 'true' });
  const { account } = await db
    .transaction()
    .execute((tx) => createAccount(tx, { email: 'bench@example.com' }, new Date()));
  scopeFor = { accountId: account.id, environment: 'live' };
  const created = await createWebhookEndpoint(db, scopeFor, {
    input: { url: `http://127.0.0.1:${port}/hooks`, events: ['signer.signed'] },
    config,
    now: () => new Date(),
  });
  secret = created.secret;
  endpointIdFor = created.endpoint.id;
  const emit = emitter(db, scopeFor, endpointIdFor);

  const loadStart = loadavg();
  const results: Result[] = [];
  for (const n of workerCounts) {
    process.stderr.write(`workers=${n} ...\n`);
    results.push(await run(n, database.url, emit));
  }
  const unverified = [...receipts.values()].filter((r) => !r.verified).length;
  const report = {
    load_average_start: loadStart,
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', node: process.version },
    database: process.env.DATABASE_URL ? 'DATABASE_URL' : 'embedded PostgreSQL',
    worker_concurrency: concurrency,
    webhook_concurrency: webhookConcurrency,
    load_average: loadavg(),
    received: receipts.size,
    duplicates,
    unverified,
    results,
  };
  mkdirSync(join(ROOT, 'bench/out'), { recursive: true });
  writeFileSync(join(ROOT, 'bench/out/webhooks.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log('| workers | latency p50 | latency p99 | latency max | sustained deliveries/s |');
  console.log('| ------- | ----------- | ----------- | ----------- | ---------------------- |');
  for (const r of results) {
    console.log(
      `| ${r.workers} | ${r.latency.p50_ms} ms | ${r.latency.p99_ms} ms | ${r.latency.max_ms} ms | ${r.throughput.per_second} (${r.throughput.deliveries} in ${r.throughput.seconds} s) |`,
    );
  }
  console.log(
    '\n| workers | round | service deliveries/s | floor deliveries/s | ratio | service CPU/delivery | floor CPU/delivery | service statements/delivery | floor statements/delivery |',
  );
  console.log(
    '| ------- | ----- | -------------------: | -----------------: | ----: | -------------------: | -----------------: | --: | --: |',
  );
  for (const r of results) {
    for (const [i, { service, floor }] of r.rounds.entries()) {
      console.log(
        `| ${r.workers} | ${i + 1} | ${service.per_second} | ${floor.per_second} | ${(service.per_second / floor.per_second).toFixed(2)}× | ${service.cpu_ms_per_delivery} ms | ${floor.cpu_ms_per_delivery} ms | ${service.statements_per_delivery} | ${floor.statements_per_delivery} |`,
      );
    }
    const sum = (k: 'service' | 'floor' | 'graphile') =>
      r.rounds.reduce((s, x) => s + (x[k]?.per_second ?? 0), 0);
    for (const [i, { service, graphile }] of r.rounds.entries()) {
      if (!graphile) continue;
      console.log(
        `| ${r.workers} | ${i + 1} | graphile-worker: ${graphile.per_second}/s (${(graphile.per_second / service.per_second).toFixed(2)}× the service) | CPU ${graphile.cpu_ms_per_delivery} ms | statements ${graphile.statements_per_delivery} | | | | |`,
      );
    }
    console.log(
      `| ${r.workers} | all | ${sum('service')} | ${sum('floor')} | ${(sum('service') / sum('floor')).toFixed(2)}× | | | | |`,
    );
  }
  console.log(
    `\n${report.received} events received, ${duplicates} duplicates, ${unverified} failed signature checks; ${report.machine.cpus} CPU(s), ${report.database}, WORKER_CONCURRENCY=${concurrency}, WEBHOOK_CONCURRENCY=${webhookConcurrency}`,
  );
  if (duplicates > 0 || unverified > 0) process.exitCode = 1;
} finally {
  receiver.close();
  await db.destroy();
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
