// Issue 31: a bulk send of `--rows` CSV rows (default 1,000), timed as a user sees it: from the
// preview (POST /bulk_sends/preview) through the upload (POST /bulk_sends) to every request
// created, polling GET /bulk_sends/{id} every 100 ms, on the service's production start
// (`apps/server`: API and worker in one process). Checks that every row became exactly one request
// and that the progress shown never ran ahead of the requests that exist (each poll's `sent`
// against a count of the batch's requests read right after it).
//
//   pnpm bench bulk [--rows 1000] [--runs 2] [--send-email]
//
// The database is DATABASE_URL's server (a scratch database, dropped at the end) or an embedded
// PostgreSQL. Results go to bench/out/bulk.json.
import type { ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createAccount, issueApiKey } from '@esign/core/operator';
import { createDb, migrateToLatest } from '@esign/db';
import { buildWeb } from '@esign/testing/web-build';
import { sql } from 'kysely';
import { sleep, startService, stop } from './http-load.ts';
import { makePdf, scratchDatabase } from './util.ts';

const ROOT = join(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: {
    rows: { type: 'string', default: '1000' },
    runs: { type: 'string', default: '2' },
    'send-email': { type: 'boolean', default: false },
  },
});
const ROWS = Number(args.rows);
const RUNS = Number(args.runs);
const dataDir = mkdtempSync(join(tmpdir(), 'esign-bench-bulk-'));
chmodSync(dataDir, 0o755);

const database = await scratchDatabase(join(dataDir, 'pg'));
const db = createDb(database.url, { max: 2 });
const children: ChildProcess[] = [];
try {
  await migrateToLatest(db);
  await buildWeb();
  const service = await startService({
    databaseUrl: database.url,
    dataDir,
    secretKey: 'bench-bulk-server-secret-0123456789abcdef-0123',
    port: 39431,
  });
  children.push(service.child);
  const { user } = await db
    .transaction()
    .execute((tx) => createAccount(tx, { email: 'bulk@example.com', credits: 1000 }, new Date()));
  const { key } = await issueApiKey(db, { userId: user.id, environment: 'live', permission: 'full' });
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${service.base}/api/v1/${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const json = (await res.json()) as any;
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const file = Buffer.from(await makePdf(1)).toString('base64');
  const area = (y: number) => [{ page: 1, x: 0.1, y, w: 0.3, h: 0.05 }];
  const runs = [];
  for (let run = 0; run < RUNS; run++) {
    const template = await api('POST', 'templates', {
      name: `Waiver ${run}`,
      documents: [{ file }],
      fields: [
        { name: 'Signature', type: 'signature', role: 'Guest', areas: area(0.8) },
        { name: 'Company', type: 'text', role: 'Guest', required: false, areas: area(0.2) },
      ],
    });
    const lines = ['Name,Email,Company'];
    for (let i = 0; i < ROWS; i++) lines.push(`Guest ${i},guest${run}-${i}@example.com,Acme ${i}`);
    const upload = {
      template_id: template.id,
      file: Buffer.from(lines.join('\r\n')).toString('base64'),
      file_name: 'guests.csv',
      send_email: args['send-email'],
    };
    const t0 = performance.now();
    const preview = await api('POST', 'bulk_sends/preview', upload);
    const tPreview = performance.now();
    if (preview.total_rows !== ROWS || preview.invalid_rows !== 0)
      throw new Error(`preview: ${JSON.stringify(preview).slice(0, 300)}`);
    const batch = await api('POST', 'bulk_sends', { ...upload, mapping: preview.mapping });
    const tCreate = performance.now();
    let overstated = 0;
    const progress: [number, number][] = [];
    let status = batch;
    while (status.status !== 'completed' && status.status !== 'stopped') {
      await sleep(100);
      status = await api('GET', `bulk_sends/${batch.id}`);
      const made = await sql<{ n: number }>`select count(*)::int as n from signature_requests
        where template_id = ${template.id}`.execute(db);
      overstated = Math.max(overstated, status.counts.sent - made.rows[0]!.n);
      progress.push([Math.round(performance.now() - t0), status.counts.sent]);
      if (performance.now() - t0 > 600_000) throw new Error('bulk send did not finish in 10 minutes');
    }
    const tDone = performance.now();
    const check = await sql<{ requests: number; distinct_rows: number; bulk: number }>`
      select count(*)::int as requests,
        (select count(distinct signature_request_id)::int from bulk_send_rows where bulk_send_id = ${batch.id}) as distinct_rows,
        count(*) filter (where source = 'bulk')::int as bulk
      from signature_requests where template_id = ${template.id}`.execute(db);
    runs.push({
      rows: ROWS,
      status: status.status,
      counts: status.counts,
      previewMs: Math.round(tPreview - t0),
      uploadMs: Math.round(tCreate - tPreview),
      totalMs: Math.round(tDone - t0),
      requests: check.rows[0]!.requests,
      distinctRequestsOfRows: check.rows[0]!.distinct_rows,
      progressOverstatedBy: overstated,
      progressSamples: progress.filter((_, i) => i % 5 === 0),
    });
    process.stderr.write(`run ${run + 1}: ${JSON.stringify(runs.at(-1)).slice(0, 300)}\n`);
  }
  const report = {
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', node: process.version },
    loadavg: loadavg().map((l) => Number(l.toFixed(2))),
    database: process.env.DATABASE_URL ? 'DATABASE_URL' : 'embedded PostgreSQL',
    sendEmail: args['send-email'],
    runs,
  };
  mkdirSync(join(ROOT, 'bench/out'), { recursive: true });
  writeFileSync(join(ROOT, 'bench/out/bulk.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(JSON.stringify({ ...report, runs: runs.map(({ progressSamples, ...r }) => r) }, null, 2));
} finally {
  await Promise.all(children.map(stop));
  await db.destroy();
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
