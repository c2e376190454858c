// Issue 31: `POST /api/v1/signature_requests` at volume, each against its floor in the same run:
// - the service (its production start, `apps/server`) with 16 keep-alive connections all sending
//   the SAME template;
// - the service with the 16 connections each sending its OWN template (16 templates);
// - the floor (bench/floor-server.ts: a bare `node:http` + `pg` server doing the key lookup, one
//   template read with fields and documents as JSON, and one transaction inserting the request
//   with its snapshot, the signer and an audit row), 16 connections on the one template.
// Rounds alternate the three, `--seconds` each, after a warm-up; req/s and p99 per round and over
// all rounds. While the service runs on one template, pg_stat_activity is sampled every 100 ms:
// how many of its sessions were waiting on a lock (issue 31 saw 7-8 of ~10 on `Lock:tuple`).
//
//   pnpm bench sends [--seconds 10] [--rounds 3] [--connections 16]
//
// The database is DATABASE_URL's server (a scratch database, dropped at the end) or an embedded
// PostgreSQL. Results go to bench/out/sends.json.
import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createAccount, issueApiKey } from '@esign/core/operator';
import { createDb, type Db, migrateToLatest } from '@esign/db';
import { buildWeb } from '@esign/testing/web-build';
import { sql } from 'kysely';
import { cpuMs, type Load, load, startFloor, startService, stop } from './http-load.ts';
import { makePdf, scratchDatabase } from './util.ts';

const ROOT = join(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '16' },
  },
});
const SECONDS = Number(args.seconds);
const ROUNDS = Number(args.rounds);
const CONNECTIONS = Number(args.connections);
const SECRET_KEY = 'bench-sends-server-secret-0123456789abcdef-01';
const dataDir = mkdtempSync(join(tmpdir(), 'esign-bench-sends-'));
chmodSync(dataDir, 0o755);

/** An account with `n` templates (one 1-page document, one signature field each) made through the API. */
async function setUp(db: Db, base: string, n: number) {
  const { user } = await db
    .transaction()
    .execute((tx) => createAccount(tx, { email: 'sends@example.com', credits: 1_000_000 }, new Date()));
  const { key } = await issueApiKey(db, { userId: user.id, environment: 'live', permission: 'full' });
  const file = Buffer.from(await makePdf(1)).toString('base64');
  const field = { type: 'signature', role: 'Signer', areas: [{ page: 1, x: 0.1, y: 0.8, w: 0.3, h: 0.05 }] };
  const templates: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${base}/api/v1/templates`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Bench ${i}`, documents: [{ file }], fields: [field] }),
    });
    if (res.status !== 201) throw new Error(`POST templates: ${res.status} ${await res.text()}`);
    templates.push(((await res.json()) as { id: number }).id);
  }
  return { key, templates };
}

/** Samples the service's sessions every 100 ms while `during` runs: the share waiting on a lock. */
async function lockWaits<T>(db: Db, during: Promise<T>): Promise<{ result: T; waitingShare: number }> {
  let active = 0;
  let waiting = 0;
  let done = false;
  const sampler = (async () => {
    while (!done) {
      const r = await sql<{ active: number; waiting: number }>`
        select count(*)::int as active, count(*) filter (where wait_event_type = 'Lock')::int as waiting
        from pg_stat_activity where state = 'active' and query not like '%pg_stat_activity%'
          and backend_type = 'client backend'`.execute(db);
      active += r.rows[0]!.active;
      waiting += r.rows[0]!.waiting;
      await new Promise((res) => setTimeout(res, 100));
    }
  })();
  const result = await during;
  done = true;
  await sampler;
  return { result, waitingShare: active ? Number((waiting / active).toFixed(3)) : 0 };
}

const database = await scratchDatabase(join(dataDir, 'pg'));
const db = createDb(database.url, { max: 2 });
const children: ChildProcess[] = [];
try {
  await migrateToLatest(db);
  await buildWeb();
  const service = await startService({
    databaseUrl: database.url,
    dataDir,
    secretKey: SECRET_KEY,
    port: 39421,
  });
  children.push(service.child);
  const floor = await startFloor(database.url, 39422);
  children.push(floor.child);
  const { key, templates } = await setUp(db, service.base, CONNECTIONS);
  const body = (templateId: (i: number) => number) => (i: number) => ({
    template_id: templateId(i),
    signers: [{ name: `Signer ${i}`, email: `signer${i}@example.com` }],
    send_email: false,
  });
  // Each run also reports the CPU time its server process used per request (`cpuMsPerRequest`).
  const run = async (target: typeof service, templateId: (i: number) => number, seconds = SECONDS) => {
    const cpuBefore = cpuMs(target.child.pid);
    const result = await load({
      base: target.base,
      path: '/api/v1/signature_requests',
      method: 'POST',
      key,
      connections: CONNECTIONS,
      seconds,
      expect: 201,
      body: body(templateId),
    });
    const requests = result.reqPerSec * seconds;
    const cpuMsPerRequest = requests
      ? Number(((cpuMs(target.child.pid) - cpuBefore) / requests).toFixed(2))
      : 0;
    return { ...result, cpuMsPerRequest };
  };
  const one = () => templates[0]!;
  const own = (i: number) => templates[i % templates.length]!;

  process.stderr.write('warm-up ...\n');
  await run(service, one, 3);
  await run(service, own, 3);
  await run(floor, one, 3);
  type Measured = Load & { cpuMsPerRequest: number };
  const rounds: {
    oneTemplate: Measured & { waitingShare: number };
    sixteenTemplates: Measured;
    floor: Measured;
  }[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    process.stderr.write(`round ${r + 1}/${ROUNDS} ...\n`);
    const sampled = await lockWaits(db, run(service, one));
    rounds.push({
      oneTemplate: { ...sampled.result, waitingShare: sampled.waitingShare },
      sixteenTemplates: await run(service, own),
      floor: await run(floor, one),
    });
  }
  const sum = (pick: (r: (typeof rounds)[number]) => Load, field: 'reqPerSec' | 'p99') =>
    rounds.reduce((s, r) => s + pick(r)[field], 0);
  const ratio = (a: number, b: number) => Number((a / b).toFixed(2));
  const totals = {
    oneTemplate: { reqPerSec: sum((r) => r.oneTemplate, 'reqPerSec'), p99: sum((r) => r.oneTemplate, 'p99') },
    sixteenTemplates: {
      reqPerSec: sum((r) => r.sixteenTemplates, 'reqPerSec'),
      p99: sum((r) => r.sixteenTemplates, 'p99'),
    },
    floor: { reqPerSec: sum((r) => r.floor, 'reqPerSec'), p99: sum((r) => r.floor, 'p99') },
  };
  const report = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', node: process.version },
    loadavg: loadavg().map((l) => Number(l.toFixed(2))),
    database: process.env.DATABASE_URL ? 'DATABASE_URL' : 'embedded PostgreSQL',
    connections: CONNECTIONS,
    seconds: SECONDS,
    rounds,
    ratios: {
      // Goals of issue 31: >= 0.5, <= 2, and one template within 20 % of 16.
      oneTemplateReqPerSecVsFloor: ratio(totals.oneTemplate.reqPerSec, totals.floor.reqPerSec),
      oneTemplateP99VsFloor: ratio(totals.oneTemplate.p99, totals.floor.p99),
      oneVsSixteenTemplates: ratio(totals.oneTemplate.reqPerSec, totals.sixteenTemplates.reqPerSec),
      sixteenTemplatesReqPerSecVsFloor: ratio(totals.sixteenTemplates.reqPerSec, totals.floor.reqPerSec),
      // The service's process CPU per send against the floor's (mean over rounds).
      oneTemplateCpuPerRequestVsFloor: ratio(
        rounds.reduce((t, r) => t + r.oneTemplate.cpuMsPerRequest, 0),
        rounds.reduce((t, r) => t + r.floor.cpuMsPerRequest, 0),
      ),
    },
  };
  mkdirSync(join(ROOT, 'bench/out'), { recursive: true });
  writeFileSync(join(ROOT, 'bench/out/sends.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(JSON.stringify(report, null, 2));
} finally {
  await Promise.all(children.map(stop));
  await db.destroy();
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
