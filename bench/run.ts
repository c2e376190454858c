// `pnpm bench [name] [options of that benchmark]`: one benchmark with its options, or, with no
// name, the table of issue 16: every hot path against its floor in the same run (bench/api.ts,
// bench/webhooks.ts with one worker, bench/sealing.ts, bench/start.ts), each in its own process,
// then the table (with the machine, the date and the load average) written into bench/README.md
// between the `issue-16-table` markers. Stops at the first benchmark that fails.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

/** Each benchmark's node arguments (templates needs --expose-gc to measure memory). */
const BENCHES = {
  api: ['bench/api.ts'],
  'large-documents': ['bench/large-documents.ts'],
  'verify-outside': ['bench/verify-outside.ts'],
  sealing: ['bench/sealing.ts'],
  sends: ['bench/sends.ts'],
  bulk: ['bench/bulk.ts'],
  start: ['bench/start.ts'],
  templates: ['--expose-gc', 'bench/templates.ts'],
  webhooks: ['bench/webhooks.ts'],
} satisfies Record<string, string[]>;
type Bench = keyof typeof BENCHES;

/** What `pnpm bench` alone runs for the issue-16 table, with the options each gets. */
const TABLE_PLAN: [Bench, string[]][] = [
  ['api', []],
  ['webhooks', ['--workers', '1', '--latency-events', '50']],
  // 30 runs: at 3 to 15 ms a run, a median of 9 moved with the machine's JIT warm-up and noise.
  ['sealing', ['--runs', '30', '--rounds', '3']],
  ['start', []],
  ['large-documents', ['--mode', 'all,split', '--docs', 'one,images,text,ten']],
];

const isBench = (name: string | undefined): name is Bench => !!name && Object.hasOwn(BENCHES, name);

function runBench(name: Bench, args: string[]): void {
  // The pages every service the benchmarks start reads (`turbo run build`, a cache hit when built).
  const build = spawnSync(
    join(ROOT, 'node_modules/.bin/turbo'),
    ['run', 'build', '--output-logs=errors-only'],
    {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  if (build.status !== 0) {
    console.error(
      `turbo run build failed (${build.signal ?? `exit ${build.status}`}); run \`pnpm build\` to see why`,
    );
    process.exit(build.status ?? 1);
  }
  console.log(`\n=== bench/${name}.ts ${args.join(' ')} ===`);
  const run = spawnSync(process.execPath, [...BENCHES[name], ...args], { cwd: ROOT, stdio: 'inherit' });
  if (run.status !== 0) {
    console.error(`bench/${name}.ts failed (${run.signal ?? `exit ${run.status}`})`);
    process.exit(run.status ?? 1);
  }
}

const out = (name: string): any => JSON.parse(readFileSync(join(ROOT, `bench/out/${name}.json`), 'utf8'));
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
const range = (xs: number[]) =>
  Math.min(...xs) === Math.max(...xs) ? `${xs[0]}` : `${Math.min(...xs)}–${Math.max(...xs)}`;
const met = (ok: boolean) => (ok ? 'met' : '**not met**');

/** The issue's table from the JSON the benchmarks of this run wrote. */
function tableRows(): string[] {
  const api = out('api');
  const svc = api.templates.map((r: { service: { reqPerSec: number } }) => r.service.reqPerSec);
  const flr = api.templates.map((r: { floor: { reqPerSec: number } }) => r.floor.reqPerSec);
  const svcP99 = api.templates.map((r: { service: { p99: number } }) => r.service.p99);
  const flrP99 = api.templates.map((r: { floor: { p99: number } }) => r.floor.p99);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const rps = sum(svc) / sum(flr);
  const p99 = sum(svcP99) / sum(flrP99);
  const { atSmall: s, atLarge: l, small, large } = api.lists;
  const scale = (k: string) => l[k] / s[k];
  const k = (n: number) => (n >= 1e6 ? `${n / 1e6}M` : `${n / 1e3}k`);
  const wh = out('webhooks');
  const perSec = wh.results[0].throughput.per_second;
  const seal = out('sealing').results.filter((r: { pages: number }) => r.pages === 10);
  // B-B (no TSA): the row compares the service's own work; B-LTA adds network exchanges. One
  // method (bench/README.md, Sealing): CPU time, the seal and the floor alternating in one process.
  const sealBB = seal.find((r: { op: string }) => r.op === 'sealDocument B-B');
  const sealMs = sealBB.cpuMs;
  const libMs = sealBB.floorCpuMs;
  const sealRatio = sealBB.cpuRatio as number;
  const start = out('start').modes;
  const node = start['node (type stripping)'];
  const tsx = start['node --import tsx'];
  return [
    '| path | service | floor | ratio | goal | |',
    '|---|---|---|---|---|---|',
    `| \`GET /api/v1/templates\` (20 templates), req/s | ${range(svc)} | ${range(flr)} (bare \`node:http\` + \`pg\`) | ${rps.toFixed(2)}× | ≥ 0.5× | ${met(rps >= 0.5)} |`,
    `| same, p99 latency | ${range(svcP99)} ms | ${range(flrP99)} ms | ${p99.toFixed(2)}× | ≤ 2× | ${met(p99 <= 2)} |`,
    `| \`GET /signature_requests?q=<signer email>\`, p50, ${k(large)} vs ${k(small)} | ${l['q=<signer email>']} ms vs ${s['q=<signer email>']} ms | — | ${ratio(l['q=<signer email>'], s['q=<signer email>'])} | < 2× | ${met(scale('q=<signer email>') < 2)} |`,
    `| \`GET /signature_requests?status=expired\`, p50, ${k(large)} vs ${k(small)} | ${l['status=expired']} ms vs ${s['status=expired']} ms | — | ${ratio(l['status=expired'], s['status=expired'])} | < 2× | ${met(scale('status=expired') < 2)} |`,
    `| \`status=declined\` (rare), p50, ${k(large)} vs ${k(small)} | ${l['status=declined']} ms vs ${s['status=declined']} ms | — | ${ratio(l['status=declined'], s['status=declined'])} | < 2× | ${met(scale('status=declined') < 2)} |`,
    `| first page / deep cursor / \`status=completed\`, p50, ${k(large)} vs ${k(small)} | ${l['first page']} / ${l['deep cursor']} / ${l['status=completed']} ms vs ${s['first page']} / ${s['deep cursor']} / ${s['status=completed']} ms | — | ≤ ${Math.max(scale('first page'), scale('deep cursor'), scale('status=completed')).toFixed(2)}× | < 2× | ${met(Math.max(scale('first page'), scale('deep cursor'), scale('status=completed')) < 2)} |`,
    `| webhook deliveries per second, one worker (bench/webhooks.ts) | ${perSec} | — | — | ≥ 500 | ${met(perSec >= 500)} |`,
    `| sealing 10 pages (B-B) vs pdf-lib load+save of the same bytes in the same process (bench/sealing.ts), CPU time, median of 30 warm runs each, median of 3 rounds | ${sealMs} ms | ${libMs} ms | ${sealRatio.toFixed(2)}× | ≤ 3× | ${met(sealRatio <= 3)} |`,
    `| production start to \`/readyz\` / idle RSS (bench/start.ts), median | ${node.readyMsMedian} ms / ${node.idleRssMbMedian} MB | ${tsx.readyMsMedian} ms / ${tsx.idleRssMbMedian} MB with tsx | ${ratio(node.readyMsMedian, tsx.readyMsMedian)} / ${ratio(node.idleRssMbMedian, tsx.idleRssMbMedian)} | no run-time compiler | met |`,
    ...bigInputRows(),
  ];
}

interface LargePhase {
  phase: string;
  ms: number;
  peaks: Record<string, number>;
  callMedian: number;
}
interface LargeRun {
  mode: string;
  doc: string;
  idleMs: number;
  phases: LargePhase[];
}

/** The large-documents runs of this run (`--mode all,split`), or none when it was not run. */
function largeRuns(): LargeRun[] {
  try {
    return out('large-documents-one+images+text+ten-all+split').report;
  } catch {
    return [];
  }
}

const LIMIT_MB = 500;
const peakOf = (p: LargePhase) => Math.max(...Object.values(p.peaks));
const peakList = (p: LargePhase) =>
  Object.entries(p.peaks)
    .map(([name, mb]) => `${name} ${mb}`)
    .join(', ');

/** Issue 16's big-input row: the 25 MB, 200-page document through create, send, sign and seal. */
function bigInputRows(): string[] {
  const run = largeRuns().find((r) => r.mode === 'all' && r.doc.startsWith('25 MB'));
  if (!run) return [];
  const wanted = ['upload', 'send', 'sign', 'seal'];
  const phases = run.phases.filter((p) => wanted.includes(p.phase));
  const times = phases.map((p) => `${p.phase} ${(p.ms / 1000).toFixed(1)} s`).join(', ');
  const peak = Math.max(...phases.map(peakOf));
  return [
    `| 25 MB, 200-page document through create, send, sign, seal (bench/large-documents.ts, all-in-one): time; peak RSS of any process | ${times}; ${peak} MB | — | — | every process < ${LIMIT_MB} MB | ${met(peak < LIMIT_MB)} |`,
  ];
}

const CONTROL = '1 page (control)';

/**
 * Issue 18's table: each document, process layout and phase, with every process's peak RSS, and
 * the same phase's ratio for a 1-page document (the control: what the phase's own API calls cost
 * a concurrent caller whatever the document's size).
 */
function largeDocumentRows(): string[] {
  const rows = [
    '| mode | document | phase | time | peak RSS (MB) | small call (idle) | ratio | 1-page control | goal | |',
    '|---|---|---|---:|---|---|---:|---:|---|---|',
  ];
  const runs = largeRuns();
  const ratio = (run: LargeRun, p: LargePhase) => p.callMedian / run.idleMs;
  for (const run of runs) {
    const control = runs.find((r) => r.mode === run.mode && r.doc === CONTROL);
    for (const p of run.phases) {
      const c = control?.phases.find((q) => q.phase === p.phase);
      const controlCell = c && run !== control ? `${ratio(control!, c).toFixed(2)}×` : '—';
      const ok = peakOf(p) < LIMIT_MB && ratio(run, p) <= 2;
      const busy = p.phase.endsWith('back to back');
      const [goal, verdict] =
        run === control
          ? ['(control)', '—']
          : busy
            ? [`< ${LIMIT_MB} MB (a busy client: compare with the control)`, met(peakOf(p) < LIMIT_MB)]
            : [`< ${LIMIT_MB} MB, ≤ 2×`, met(ok)];
      rows.push(
        `| ${run.mode} | ${run.doc} | ${p.phase} | ${(p.ms / 1000).toFixed(1)} s | ${peakList(p)} | ${p.callMedian.toFixed(0)} ms (${run.idleMs.toFixed(0)} ms) | ${ratio(run, p).toFixed(2)}× | ${controlCell} | ${goal} | ${verdict} |`,
      );
    }
  }
  return rows;
}

function writeTable(loadBefore: number[]): void {
  const api = out('api');
  const lines = [
    '<!-- issue-16-table:start (written by `pnpm bench`; do not edit by hand) -->',
    `Run of ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, ${api.database === 'DATABASE_URL' ? 'PostgreSQL on DATABASE_URL' : 'embedded PostgreSQL'}; load average ${loadBefore.map((x) => x.toFixed(1)).join(' / ')} at the start and ${loadavg()
      .map((x) => x.toFixed(1))
      .join(
        ' / ',
      )} at the end (1 / 5 / 15 min). GET /templates: ${api.connections} connections, ${api.seconds} s per run, ${api.templates.length} alternating rounds; lists: p50 of sequential requests, ${api.lists.small} then ${api.lists.large} requests in one account (seeded with SQL in ${api.lists.seedSeconds} s).`,
    '',
    ...tableRows(),
    '<!-- issue-16-table:end -->',
  ];
  replaceBlock('issue-16-table', lines);
  const large = largeRuns();
  if (large.length > 0)
    replaceBlock('issue-18-table', [
      '<!-- issue-18-table:start (written by `pnpm bench`; do not edit by hand) -->',
      `Run of ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, same machine and run as the table above. Small call: median of the \`POST /signature_requests\` calls (1-page template, made one after another by another client) that overlapped one of the phase's operations, against the idle median of the same server (the lower of the medians of 25 calls just before the document's phases and just after them). Send and sign make their calls as users do, 150 ms apart; the rows "back to back" make the same calls with no pause (see "Large documents" below).`,
      '',
      ...largeDocumentRows(),
      '<!-- issue-18-table:end -->',
    ]);
}

/** Replaces the block between `<!-- name:start` and `<!-- name:end -->` in bench/README.md. */
function replaceBlock(name: string, lines: string[]): void {
  const readme = join(ROOT, 'bench/README.md');
  const text = readFileSync(readme, 'utf8');
  const block = new RegExp(`<!-- ${name}:start[\\s\\S]*?<!-- ${name}:end -->`);
  writeFileSync(
    readme,
    block.test(text) ? text.replace(block, lines.join('\n')) : `${text}\n${lines.join('\n')}\n`,
  );
  console.log(`\n${lines.join('\n')}`);
}

const [first, ...rest] = process.argv.slice(2);
if (first === '--table-only') writeTable(loadavg());
else if (first !== undefined) {
  if (!isBench(first)) {
    console.error(`Unknown benchmark "${first}"; expected one of ${Object.keys(BENCHES).join(', ')}`);
    process.exit(2);
  }
  runBench(first, rest);
} else {
  const loadBefore = loadavg();
  for (const [name, args] of TABLE_PLAN) runBench(name, args);
  writeTable(loadBefore);
}
