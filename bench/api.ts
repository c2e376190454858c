// REST hot paths of issue 16, each against its floor in the same run:
// - `GET /api/v1/templates` (20 templates): req/s and p99 of the service (its production start,
//   `apps/server`) against a bare `node:http` + `pg` server doing the key lookup and one list query
//   (bench/floor-server.ts), 64 keep-alive connections, alternating rounds;
// - list filters at 1k and at 1M signature requests in one account (seeded with SQL): p50 of
//   `q=<signer email>`, `status=expired`, the first page, a deep cursor and `status=completed`.
//
//   pnpm bench api [--seconds 10] [--rounds 3] [--connections 64] [--large 1000000] [--small 1000]
//
// The database is DATABASE_URL's server (a scratch database, dropped at the end) or an embedded
// PostgreSQL. Results go to bench/out/api.json (bench/run.ts turns them into the README table).
import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createAccount, issueApiKey } from '@esign/core/operator';
import { createDb, type Db, migrateToLatest } from '@esign/db';
import { seededEmail, seedRequests } from '@esign/testing/seed-scale';
import { buildWeb } from '@esign/testing/web-build';
import { sql } from 'kysely';
import { type Load, load, percentile, startFloor, startService, stop } from './http-load.ts';
import { makePdf, scratchDatabase } from './util.ts';

const ROOT = join(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '64' },
    small: { type: 'string', default: '1000' },
    large: { type: 'string', default: '1000000' },
    samples: { type: 'string', default: '30' },
    keep: { type: 'boolean', default: false },
  },
});
const SECONDS = Number(args.seconds);
const ROUNDS = Number(args.rounds);
const CONNECTIONS = Number(args.connections);
const SAMPLES = Number(args.samples);
const SECRET_KEY = 'bench-api-server-secret-0123456789abcdef-0123';
const dataDir = mkdtempSync(join(tmpdir(), 'esign-bench-api-'));
chmodSync(dataDir, 0o755);

/** `CONNECTIONS` keep-alive connections on one GET path, each sending the next when the last answered. */
const getLoad = (base: string, path: string, key: string, seconds: number): Promise<Load> =>
  load({ base, path, method: 'GET', key, connections: CONNECTIONS, seconds, expect: 200 });

/**
 * p50 of `SAMPLES` requests to each of two accounts' paths, alternating one after the other (after
 * 3 warm-ups each), in ms: both accounts are measured at the same moment, so a change of the
 * machine's load during the run moves both alike.
 */
async function p50Pair(small: Target, large: Target): Promise<[number, number]> {
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < SAMPLES + 3; i++) {
    for (const [at, target] of [small, large].entries()) {
      const t0 = performance.now();
      const res = await fetch(`${target.base}${target.path}`, {
        headers: { authorization: `Bearer ${target.key}` },
      });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`${target.path}: ${res.status} ${body}`);
      if (i >= 3) times[at]!.push(performance.now() - t0);
    }
  }
  const p50 = (xs: number[]) =>
    Number(
      percentile(
        [...xs].sort((a, b) => a - b),
        50,
      ).toFixed(1),
    );
  return [p50(times[0]), p50(times[1])];
}

interface Target {
  base: string;
  path: string;
  key: string;
}

// ---------------------------------------------------------------- set-up

async function setUp(db: Db, base: string, email: string) {
  const { account, user } = await db
    .transaction()
    .execute((tx) => createAccount(tx, { email, credits: 1000 }, new Date()));
  const { key } = await issueApiKey(db, { userId: user.id, environment: 'live', permission: 'full' });
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${base}/api/v1/${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { id: number };
  };
  const file = Buffer.from(await makePdf(1)).toString('base64');
  const field = { type: 'signature', role: 'Signer', areas: [{ page: 1, x: 0.1, y: 0.8, w: 0.3, h: 0.05 }] };
  const template = await post('templates', { name: 'Bench', documents: [{ file }], fields: [field] });
  const request = await post('signature_requests', {
    template_id: template.id,
    signers: [{ email: 'prototype@example.com' }],
  });
  // 20 templates made by a dashboard user (created_by filled in), as in the issue's measurement.
  await sql`update templates set created_by_user_id = ${user.id} where id = ${template.id}`.execute(db);
  await sql`insert into templates (account_id, environment, name, roles, source, created_by_user_id, created_at, updated_at)
    select account_id, environment, name || ' ' || g, roles, source, created_by_user_id, now(), now()
    from templates, generate_series(1, 19) g where id = ${template.id}`.execute(db);
  return { key, requestId: request.id, accountId: account.id };
}

// ---------------------------------------------------------------- lists at scale

interface ListAccount {
  key: string;
  accountId: number;
  requestId: number;
}

/** The list paths measured for one account (the signer searched for is one in its middle). */
async function listPaths(db: Db, account: ListAccount): Promise<Record<string, string>> {
  const range = await sql<{ lo: number; hi: number }>`
    select min(id) as lo, max(id) as hi from signature_requests
    where account_id = ${account.accountId} and id > ${account.requestId}`.execute(db);
  const { lo, hi } = range.rows[0]!;
  const middle = Math.floor((lo + hi) / 2);
  return {
    'q=<signer email>': `/api/v1/signature_requests?q=${encodeURIComponent(seededEmail(middle))}`,
    'status=expired': '/api/v1/signature_requests?status=expired',
    'status=declined': '/api/v1/signature_requests?status=declined',
    'first page': '/api/v1/signature_requests',
    'deep cursor': `/api/v1/signature_requests?cursor=${middle}`,
    'status=completed': '/api/v1/signature_requests?status=completed',
  };
}

/** Each list path's p50 for the small and the large account, measured alternately. */
async function listLatencies(base: string, db: Db, small: ListAccount, large: ListAccount) {
  const [smallPaths, largePaths] = [await listPaths(db, small), await listPaths(db, large)];
  const atSmall: Record<string, number> = {};
  const atLarge: Record<string, number> = {};
  for (const name of Object.keys(smallPaths)) {
    [atSmall[name], atLarge[name]] = await p50Pair(
      { base, path: smallPaths[name]!, key: small.key },
      { base, path: largePaths[name]!, key: large.key },
    );
  }
  return { atSmall, atLarge };
}

// ---------------------------------------------------------------- main

const database = await scratchDatabase(join(dataDir, 'pg'));
const db = createDb(database.url, { max: 4 });
const children: ChildProcess[] = [];
try {
  await migrateToLatest(db);
  await buildWeb(); // `turbo run build`: the service reads the built pages; not during a measurement
  const service = await startService({
    databaseUrl: database.url,
    dataDir,
    secretKey: SECRET_KEY,
    port: 39411,
  });
  children.push(service.child);
  const floor = await startFloor(database.url, 39412);
  children.push(floor.child);
  const largeAccount = await setUp(db, service.base, 'bench@example.com');
  const smallAccount = await setUp(db, service.base, 'bench-small@example.com');
  const { key } = largeAccount;

  process.stderr.write('GET /templates: service vs floor ...\n');
  const rounds: { service: Load; floor: Load }[] = [];
  await getLoad(service.base, '/api/v1/templates', key, 2); // warm-up
  await getLoad(floor.base, '/api/v1/templates', key, 2);
  for (let r = 0; r < ROUNDS; r++) {
    rounds.push({
      service: await getLoad(service.base, '/api/v1/templates', key, SECONDS),
      floor: await getLoad(floor.base, '/api/v1/templates', key, SECONDS),
    });
  }

  const small = Number(args.small);
  const large = Number(args.large);
  // Two accounts in one database, one with `small` requests and one with `large`, measured
  // alternately request by request: "flat from a thousand rows to a million" per account.
  process.stderr.write(`seeding ${small} and ${large} requests ...\n`);
  await seedRequests(db, { requests: small, prototypeId: smallAccount.requestId });
  const seedStart = performance.now();
  await seedRequests(db, { requests: large, prototypeId: largeAccount.requestId });
  const seedSeconds = (performance.now() - seedStart) / 1000;
  process.stderr.write(`lists of the ${small}-request and the ${large}-request account ...\n`);
  const { atSmall, atLarge } = await listLatencies(service.base, db, smallAccount, largeAccount);

  const report = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', node: process.version },
    loadavg: loadavg().map((l) => Number(l.toFixed(2))),
    database: process.env.DATABASE_URL ? 'DATABASE_URL' : 'embedded PostgreSQL',
    connections: CONNECTIONS,
    seconds: SECONDS,
    templates: rounds,
    lists: { small, large, seedSeconds: Number(seedSeconds.toFixed(1)), atSmall, atLarge },
  };
  mkdirSync(join(ROOT, 'bench/out'), { recursive: true });
  writeFileSync(join(ROOT, 'bench/out/api.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(JSON.stringify(report, null, 2));
} finally {
  await Promise.all(children.map(stop));
  await db.destroy();
  if (args.keep) console.error(`kept the database: ${database.url}`);
  else await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
