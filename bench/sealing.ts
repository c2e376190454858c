// Sealing benchmark: CPU time and peak memory of sealDocument (20 values drawn + the certification
// seal) on 1, 10 and 100-page documents, against a plain pdf-lib load + save of the same file;
// once at PAdES B-B (no TSA) and once at B-LTA against loopback trust services (an `openssl ts`
// TSA, an `openssl ocsp` responder and a CRL, test/trust-services.ts), whose network wait (the
// time spent waiting for TSA/OCSP/CRL answers) is reported separately.
//
//   node bench/sealing.ts [--runs N] [--rounds R] [--pages 10] [--ops B-B]
//
// The method (issue 31, one ratio for one thing): the same input bytes, in the same process, the
// operation and the floor (pdf-lib load + save) alternating run by run, WARM_UP runs of both before
// N measured ones, and for each the median of the N measured runs' CPU time (process.cpuUsage:
// user + system, every thread of the process). The ratio is median operation CPU / median floor
// CPU of the same child. CPU time, not wall time: on a shared machine other processes' load moves
// wall time by 2-5x between runs, and a B-LTA seal's wait for its TSA is not CPU. Wall-clock
// medians are printed beside it. Every operation runs in its own child process, so its peak RSS
// (process.resourceUsage().maxRSS) belongs to that operation alone; the inputs and the signing
// identity are prepared once by the parent; "cold" is the first run.

import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { crc32, deflateSync } from 'node:zlib';
import { PDFDocument, StandardFonts } from 'pdf-lib';

const PAGES = [1, 10, 100];
/**
 * Runs before the measured ones, for each operation alike: a worker process seals many documents,
 * and its steady state is what counts. The JIT needs about a hundred to settle: in one process
 * (2026-11-26, Intel Xeon), a 10-page seal's runs 11-40 had a median of 8.0 ms, 41-70 5.2 ms,
 * 71-100 5.0 ms, 101-200 4.7 ms and 201-400 4.5 ms (2026-11-23, another host: 9.6 ms for 11-40,
 * 6.7-7.5 ms for 41-300). Until 2026-11-26 there were 40.
 */
const WARM_UP = 100;
const FIELDS = 20;
const OPS = ['pdf-lib load+save', 'sealDocument B-B', 'sealDocument B-LTA'] as const;
type Op = (typeof OPS)[number];

interface Result {
  op: Op;
  pages: number;
  bytes: number;
  outBytes: number;
  coldMs: number;
  /** Median wall-clock time of the measured runs. */
  medianMs: number;
  /** Median CPU time (user + system) of the measured runs. */
  cpuMs: number;
  /** Median CPU time of the floor (pdf-lib load + save of the same bytes), alternating with the runs. */
  floorCpuMs: number;
  /** cpuMs / floorCpuMs: the ratio the goal is about. */
  cpuRatio: number;
  baselineRssMb: number;
  peakRssMb: number;
  /** Median time per run spent waiting for TSA / OCSP / CRL answers (B-LTA only). */
  networkMs: number;
  /** Median pdf-lib load + save of the same file, interleaved with this operation's runs. */
  interleavedBaselineMs: number;
  /** With `--rounds`: each round's CPU ratio (cpuRatio is their median). */
  roundMedians?: number[];
}

/** Where the child finds the loopback trust services and the sealing identity with its chain. */
interface TrustArgs {
  tsaUrl: string;
  p12File: string;
  password: string;
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;

// ---------------------------------------------------------------- inputs

/** A small RGBA PNG with a stroke, like a drawn signature (encoded by hand: no canvas needed). */
function signaturePng(width = 300, height = 100): string {
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 4 + 1)] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const curve = Math.round(height / 2 + Math.sin(x / 25) * (height / 3));
      const o = y * (width * 4 + 1) + 1 + x * 4;
      const ink = Math.abs(y - curve) <= 2;
      raw[o] = ink ? 0x11 : 0xff;
      raw[o + 1] = ink ? 0x22 : 0xff;
      raw[o + 2] = ink ? 0x44 : 0xff;
      raw[o + 3] = ink ? 0xff : 0x00;
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${png.toString('base64')}`;
}

/** A text-heavy document: each Letter page carries 40 lines of text in Helvetica. */
async function sourcePdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 1; p <= pages; p++) {
    const page = doc.addPage([612, 792]);
    page.drawText(`Page ${p} of ${pages}`, { x: 72, y: 740, size: 18, font });
    for (let line = 0; line < 40; line++) {
      page.drawText(`Clause ${p}.${line + 1}: the parties agree to the terms set out in this section.`, {
        x: 72,
        y: 710 - line * 15,
        size: 10,
        font,
      });
    }
  }
  return doc.save();
}

/**
 * 20 values of mixed types spread over the pages (every page gets some when it has <= 20). `run`
 * goes into every text, so each run draws texts it has not drawn before (real seals do; shaped
 * text is remembered within a process).
 */
function sealValues(pages: number, run: number, png: string) {
  const kinds = [
    'text',
    'signature',
    'date',
    'checkbox',
    'initials',
    'number',
    'multiple',
    'stamp',
    'phone',
    'select',
  ];
  return Array.from({ length: FIELDS }, (_, i) => {
    const type = kinds[i % kinds.length]!;
    const page = (i % pages) + 1;
    const area = { page, x: 0.1 + (i % 2) * 0.45, y: 0.1 + ((i * 7) % 80) / 100, w: 0.35, h: 0.05 };
    const value =
      type === 'signature'
        ? png
        : type === 'date'
          ? '2026-03-04'
          : type === 'checkbox'
            ? true
            : type === 'number'
              ? 1234.5
              : type === 'multiple'
                ? ['Option A', 'Option C']
                : type === 'initials'
                  ? 'J.Q.C.'
                  : type === 'stamp'
                    ? 'APPROVED'
                    : `Value number ${i + 1} for a ${type} field, run ${run}`;
    return { type, areas: [area], value };
  });
}

// ---------------------------------------------------------------- child: one measurement

async function child(
  op: Op,
  file: string,
  dataDir: string,
  runs: number,
  trustArgs: TrustArgs,
): Promise<void> {
  const pdfSeal = await import('../packages/pdf/src/seal/index.ts');
  const bytes = new Uint8Array(readFileSync(file));
  const pages = Number(path.basename(file).split('-')[0]);
  const lta = op === 'sealDocument B-LTA';
  const identity = lta
    ? await pdfSeal.loadSigningIdentity({
        dataDir,
        p12: readFileSync(trustArgs.p12File),
        password: trustArgs.password,
      })
    : await pdfSeal.loadSigningIdentity({ dataDir });
  // The values are what the seal job reads from the database: made before the clock starts.
  const png = signaturePng();
  const valuesFor = (run: number) =>
    sealValues(pages, run, png) as Parameters<typeof pdfSeal.sealDocument>[0]['values'];
  let waited = 0;
  const fetchTrust: import('../packages/pdf/src/seal/index.ts').TrustFetch = async (url, init) => {
    const start = performance.now();
    const res = await fetch(url, { method: init.method, headers: init.headers, body: init.body as BodyInit });
    const body = new Uint8Array(await res.arrayBuffer());
    waited += performance.now() - start;
    return { status: res.status, body };
  };
  const once = async (values: ReturnType<typeof valuesFor>): Promise<Uint8Array> => {
    if (op === 'pdf-lib load+save') return (await PDFDocument.load(bytes)).save();
    const trust = lta
      ? {
          timestampAuthority: pdfSeal.createTimestampAuthority({ url: trustArgs.tsaUrl, fetch: fetchTrust }),
          revocationProvider: pdfSeal.createRevocationProvider(fetchTrust),
        }
      : undefined;
    return pdfSeal.sealDocument({ pdf: bytes, values, identity, name: 'Benchmark', trust });
  };
  const baselineRss = process.memoryUsage().rss;
  const times: number[] = [];
  const opCpus: number[] = [];
  const waits: number[] = [];
  const baselines: number[] = [];
  const floorCpus: number[] = [];
  let out: Uint8Array = new Uint8Array();
  const cpuMs = (since: NodeJS.CpuUsage) => {
    const d = process.cpuUsage(since);
    return (d.user + d.system) / 1000;
  };
  const measureOp = async (i: number) => {
    waited = 0;
    const values = valuesFor(i);
    const cpu = process.cpuUsage();
    const start = performance.now();
    out = await once(values);
    times.push(performance.now() - start);
    opCpus.push(cpuMs(cpu));
    waits.push(waited);
  };
  // The floor on the same bytes in the same process, alternating with the operation.
  const measureFloor = async () => {
    const cpu = process.cpuUsage();
    const base = performance.now();
    await (await PDFDocument.load(bytes)).save();
    baselines.push(performance.now() - base);
    floorCpus.push(cpuMs(cpu));
  };
  for (let i = 0; i < WARM_UP + runs; i++) {
    // Which goes first alternates, so neither always runs after the other's garbage.
    if (i % 2 === 0) {
      await measureOp(i);
      await measureFloor();
    } else {
      await measureFloor();
      await measureOp(i);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const round1 = (x: number) => Math.round(x * 10) / 10;
  const opCpu = median(opCpus.slice(WARM_UP));
  const floorCpu = median(floorCpus.slice(WARM_UP));
  const result: Result = {
    op,
    pages,
    bytes: bytes.length,
    outBytes: out.length,
    coldMs: Math.round(times[0]!),
    // One decimal: a 10-page load + save takes 2 to 5 ms, and whole milliseconds moved the ratio by a third.
    medianMs: round1(median(times.slice(WARM_UP))),
    cpuMs: round1(opCpu),
    floorCpuMs: round1(floorCpu),
    cpuRatio: Math.round((opCpu / floorCpu) * 100) / 100,
    baselineRssMb: mb(baselineRss),
    peakRssMb: mb(process.resourceUsage().maxRSS * 1024),
    networkMs: Math.round(median(waits.slice(WARM_UP))),
    interleavedBaselineMs: round1(median(baselines.slice(WARM_UP))),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

// ---------------------------------------------------------------- parent

const run = promisify(execFile);

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === '--child') {
    const trustArgs = JSON.parse(args[5]!) as TrustArgs;
    await child(args[1] as Op, args[2]!, args[3]!, Number(args[4]), trustArgs);
    return;
  }
  const runsAt = args.indexOf('--runs');
  const runs = runsAt >= 0 ? Math.max(1, Number(args[runsAt + 1])) : 3;
  const roundsAt = args.indexOf('--rounds');
  const rounds = roundsAt >= 0 ? Math.max(1, Number(args[roundsAt + 1])) : 1;
  const pagesAt = args.indexOf('--pages');
  const pageCounts = pagesAt >= 0 ? args[pagesAt + 1]!.split(',').map(Number) : PAGES;
  // `--ops B-B`: only the operations whose name contains it (the floor runs inside each child anyway).
  const opsAt = args.indexOf('--ops');
  const ops = opsAt >= 0 ? OPS.filter((op) => op.includes(args[opsAt + 1]!)) : OPS;
  const dir = mkdtempSync(path.join(tmpdir(), 'esign-bench-sealing-'));
  const { loadSigningIdentity } = await import('../packages/pdf/src/seal/index.ts');
  await loadSigningIdentity({ dataDir: dir }); // generate the self-signed identity once
  // The trust services answer from this process, so children run asynchronously (never spawnSync).
  const { startTrustServices } = await import('@esign/testing/trust-services');
  const services = await startTrustServices();
  const p12File = path.join(dir, 'leaf.p12');
  writeFileSync(p12File, services.leafP12);
  const trustArgs: TrustArgs = { tsaUrl: services.tsaUrl, p12File, password: services.leafP12Password };
  const results: Result[] = [];
  try {
    for (const pages of pageCounts) {
      const file = path.join(dir, `${pages}-pages.pdf`);
      writeFileSync(file, await sourcePdf(pages));
      // Rounds alternate the operations, so a change of the machine's load during the run moves
      // them alike; each operation's median is the median of its rounds' medians.
      const byOp = new Map<Op, Result[]>();
      for (let round = 0; round < rounds; round++) {
        for (const op of ops) {
          const childArgs = ['--child', op, file, dir, String(runs), JSON.stringify(trustArgs)];
          const out = await run(process.execPath, [...process.execArgv, import.meta.filename, ...childArgs], {
            encoding: 'utf8',
            maxBuffer: 16 * 1024 * 1024,
          }).catch((err: { stderr?: string }) => {
            throw new Error(`${op} on ${pages} pages failed:\n${err.stderr ?? err}`);
          });
          const result = JSON.parse(out.stdout.trim().split('\n').pop()!) as Result;
          byOp.set(op, [...(byOp.get(op) ?? []), result]);
        }
      }
      for (const rs of byOp.values()) results.push(mergeRounds(rs));
    }
  } finally {
    await services.close();
  }
  mkdirSync(path.join(import.meta.dirname, 'out'), { recursive: true });
  writeFileSync(
    path.join(import.meta.dirname, 'out/sealing.json'),
    `${JSON.stringify({ date: new Date().toISOString(), runs, rounds, results }, null, 2)}\n`,
  );
  printResults(results, runs, rounds);
}

const middle = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** One operation's rounds as one result: medians of the rounds' medians, the largest peak. */
function mergeRounds(rs: Result[]): Result {
  return {
    ...rs[0]!,
    medianMs: middle(rs.map((r) => r.medianMs)),
    cpuMs: middle(rs.map((r) => r.cpuMs)),
    floorCpuMs: middle(rs.map((r) => r.floorCpuMs)),
    cpuRatio: middle(rs.map((r) => r.cpuRatio)),
    networkMs: middle(rs.map((r) => r.networkMs)),
    interleavedBaselineMs: middle(rs.map((r) => r.interleavedBaselineMs)),
    peakRssMb: Math.max(...rs.map((r) => r.peakRssMb)),
    roundMedians: rs.map((r) => r.cpuRatio),
  };
}

function printResults(results: Result[], runs: number, rounds: number): void {
  console.log(
    `Sealing benchmark: ${FIELDS} values per document; per operation, in one process, the operation and a pdf-lib load + save of the same bytes alternate: ${WARM_UP} warm-up runs of both, then the median of ${runs} runs' CPU time (user + system) each; ratio = operation CPU / load+save CPU${rounds > 1 ? `, median of ${rounds} alternating rounds (each round's ratio in brackets)` : ''}; Node ${process.version}, ${cpus()[0]?.model ?? 'unknown CPU'} x${cpus().length}\n`,
  );
  console.log(
    '| pages | input | operation | output | cold ms | CPU ms | load+save CPU ms | × load+save (CPU) | wall ms | network wait ms | RSS before | peak RSS | peak - before |',
  );
  console.log('|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of results) {
    const rounds = r.roundMedians && r.roundMedians.length > 1 ? ` [${r.roundMedians.join(', ')}]` : '';
    console.log(
      `| ${r.pages} | ${kb(r.bytes)} | ${r.op} | ${kb(r.outBytes)} | ${r.coldMs} | ${r.cpuMs} | ${r.floorCpuMs} | ${r.cpuRatio.toFixed(2)}${rounds} | ${r.medianMs} | ${r.networkMs} | ${r.baselineRssMb} MB | ${r.peakRssMb} MB | ${Math.round((r.peakRssMb - r.baselineRssMb) * 10) / 10} MB |`,
    );
  }
}

await main();
