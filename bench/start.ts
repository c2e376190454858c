// Production start (issue 16): time from spawning `apps/server` to `/readyz` answering 200, and the
// process's RSS after it has idled, started with Node's own type stripping (`node main.ts`, what
// `npm start` runs) against the run-time compiler it replaced (`node --import tsx main.ts`).
//
//   pnpm bench start [--runs 3] [--idle-seconds 5]
//
// The database is a migrated scratch database (DATABASE_URL's server, or an embedded PostgreSQL
// started once), so the measure is the application's own start, not initdb. Results go to
// bench/out/start.json.
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDb, migrateToLatest } from '@esign/db';
import { buildWeb } from '@esign/testing/web-build';
import { PRODUCTION_ENV, scratchDatabase } from './util.ts';

const ROOT = join(import.meta.dirname, '..');
const { values: args } = parseArgs({
  options: { runs: { type: 'string', default: '3' }, 'idle-seconds': { type: 'string', default: '5' } },
});
const RUNS = Number(args.runs);
const IDLE_MS = Number(args['idle-seconds']) * 1000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const dataDir = mkdtempSync(join(tmpdir(), 'esign-bench-start-'));
chmodSync(dataDir, 0o755);

const MODES = {
  'node (type stripping)': [] as string[],
  'node --import tsx': ['--import', 'tsx'],
};
type Mode = keyof typeof MODES;

function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
  return line ? Math.round(Number(line[1]) / 1024) : Number.NaN;
}

async function startOnce(mode: Mode, dbUrl: string, port: number) {
  const t0 = performance.now();
  const child = spawn(process.execPath, [...MODES[mode], 'apps/server/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...PRODUCTION_ENV,
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      DATABASE_URL: dbUrl,
      DATA_DIR: dataDir,
      PORT: String(port),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${mode}: exited with ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) break;
      await sleep(20);
    }
    const readyMs = Math.round(performance.now() - t0);
    await sleep(IDLE_MS);
    return { readyMs, idleRssMb: rssMb(child.pid!) };
  } finally {
    await new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }
}

const database = await scratchDatabase(join(dataDir, 'pg'));
try {
  const db = createDb(database.url, { max: 1 });
  await migrateToLatest(db);
  await db.destroy();
  // The pages the server reads (`turbo run build`, what `npm start` runs first), then one start to
  // warm the file cache.
  await buildWeb();
  await startOnce('node (type stripping)', database.url, 39421);
  const results: Record<string, { readyMs: number[]; idleRssMb: number[] }> = {};
  for (let run = 0; run < RUNS; run++) {
    for (const mode of Object.keys(MODES) as Mode[]) {
      const r = await startOnce(mode, database.url, 39421);
      results[mode] ??= { readyMs: [], idleRssMb: [] };
      results[mode].readyMs.push(r.readyMs);
      results[mode].idleRssMb.push(r.idleRssMb);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const report = {
    date: new Date().toISOString(),
    runs: RUNS,
    modes: Object.fromEntries(
      Object.entries(results).map(([m, r]) => [
        m,
        { ...r, readyMsMedian: median(r.readyMs), idleRssMbMedian: median(r.idleRssMb) },
      ]),
    ),
  };
  mkdirSync(join(ROOT, 'bench/out'), { recursive: true });
  writeFileSync(join(ROOT, 'bench/out/start.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(JSON.stringify(report, null, 2));
} finally {
  await database.drop();
  rmSync(dataDir, { recursive: true, force: true });
}
