// Large documents (issue #18): upload, page images, send, sign, seal and verify of a 25 MB / 200-page PDF
// (every page an incompressible image) and of a 5,000-page text PDF through real processes, with
// each process's peak RSS and the latency of a small API call made at the same time.
//
//   pnpm exec tsx bench/large-documents.ts [--mode all|split|all,split] [--docs images,text,ten,one]
//     [--stop-after upload|render|send|sign|seal] [--upload json|multipart]
//
// `all`: the all-in-one server (apps/server: API, web and worker in one process). `split`: the
// API (apps/api), the web app (apps/web: signing page and /files links) and the worker
// (apps/worker), each its own process. The database is DATABASE_URL's server (a scratch database, dropped at the
// end) or a throwaway embedded PostgreSQL; its processes are not counted.
//
// RSS: each process's VmRSS is sampled every 20 ms from /proc and its VmHWM (the kernel's peak,
// reset per phase through /proc/<pid>/clear_refs) read at the end of each phase, so short spikes
// between samples are counted too. The verify phase downloads the sealed document through its
// /files link and posts it to POST /documents/verify.
//
// The small call is POST /signature_requests of a 1-page template (one signer), made one after the
// other for as long as a phase runs by another client (a worker thread, bench/small-caller.ts, so
// the bench's own parsing and encoding do not delay it). A phase's ratio is the median of the small
// calls that overlapped one of the phase's operations, over "idle": the median of the same call from
// the same thread on the same idle server, the lower of the medians taken just before the
// document's phases and just after them (one slow idle moment, say PostgreSQL's autovacuum after an
// earlier bench, cannot flatter the ratios). Upload, render, seal and verify are one operation each,
// seconds long. Send and sign are API calls of a few milliseconds, made as their users make them:
// the document sent 10 times and its signing page opened 8 times, 150 ms apart (one of each
// overlaps too few small calls for a median), then its first 10 page images and the signature. The
// rows "send, back to back" and "open, back to back" make the same calls with no pause between
// them: a client that keeps the server busy, whatever the size of its documents (compare the
// 1-page control), which on 2 cores costs every other caller about 2×.
//
//   pnpm exec tsx bench/large-documents.ts --hostile [--mode all|split]
//
// Issue 29, item 4 (see runHostile): account B's template creation (a 2-page document) alone,
// then while account A posts a 1 GiB decompression bomb and 8 clients at a time GET the preview
// of A's page that cannot be rendered.
import { type ChildProcess, spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { createAccount, issueApiKey } from '@esign/core/operator';
import { createDb, type Db, ensureDatabase, migrateToLatest, startEmbeddedPostgres } from '@esign/db';
import { PNG_DOT } from '@esign/testing/signing';
import { sql } from 'kysely';
import pg from 'pg';
import { makeGibBombPdf, makeUnrenderableImagePdf } from '../packages/pdf/test/bombs.ts';
import type { Call } from './small-caller.ts';
import { makePdf, NODE_TS, PRODUCTION_ENV } from './util.ts';

const ROOT = join(import.meta.dirname, '..');
const OUT = join(ROOT, 'bench/out');
const { values: args } = parseArgs({
  options: {
    mode: { type: 'string', default: 'all' },
    docs: { type: 'string', default: 'images,text,ten' },
    // For a quick look at the first phases only (e.g. `--stop-after upload`).
    'stop-after': { type: 'string' },
    // `multipart`: the document as a multipart file (streamed to disk), its fields set by PATCH;
    // the verify phase posts the sealed file as multipart too. `mcp`: the template is made by the
    // MCP tool create_template (the same JSON, in a JSON-RPC call to /mcp).
    upload: { type: 'string', default: 'json' },
    hostile: { type: 'boolean', default: false },
  },
});
/** Small calls per idle median (before a document's phases and after them). */
const IDLE_CALLS = 25;
/** Sends of the document, and opens of its signing page, per run (see the send and sign phases). */
const SENDS = 10;
const OPENS = 8;
/** Between two sends or opens: the server idle again, as between two users' calls. */
const PAUSE_MS = 150;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MB = (kb: number) => Math.round(kb / 1024);

// ---------------------------------------------------------------- inputs

interface DocSpec {
  id: 'one' | 'images' | 'text' | 'ten';
  label: string;
  pages: number;
  make: () => Promise<Uint8Array>;
  /** Documents in the template (each this PDF); more than one: the upload phase only. */
  copies?: number;
}
const DOCS: DocSpec[] = [
  // The control: the same phases with a one-page document, to tell what a large one adds. It runs
  // first, so the large documents meet a server that has run every phase once (the procedures'
  // schemas compiled, a sealing worker started), as the 50 warm-up calls do for the small call.
  { id: 'one', label: '1 page (control)', pages: 1, make: () => makePdf(1) },
  {
    id: 'images',
    label: '25 MB, 200 pages (images)',
    pages: 200,
    make: () => makePdf(200, { imageKb: 124 }),
  },
  { id: 'text', label: '5,000 pages (text)', pages: 5000, make: () => makePdf(5000) },
  // The most a template may hold (spec: 10 documents of 25 MB): one 333 MB JSON body.
  {
    id: 'ten',
    label: '10 × 25 MB (images), one request',
    pages: 200,
    make: () => makePdf(200, { imageKb: 124 }),
    copies: 10,
  },
];

/** The input PDF, generated once and kept under bench/out. */
async function inputPdf(spec: DocSpec): Promise<Uint8Array> {
  const file = join(OUT, `large-${spec.id === 'ten' ? 'images' : spec.id}.pdf`);
  if (spec.id === 'one') return spec.make();
  if (existsSync(file)) return new Uint8Array(readFileSync(file));
  mkdirSync(OUT, { recursive: true });
  const bytes = await spec.make();
  writeFileSync(file, bytes);
  return bytes;
}

// ---------------------------------------------------------------- processes and memory

interface Proc {
  name: string;
  child: ChildProcess;
  samplePeakKb: number;
  /** Peak RSS of any one of its child processes (the document pool's workers). */
  childPeakKb: number;
  log: string;
}

/** Its child processes' ids (the document pool's workers). */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

function procStatus(pid: number): { rss: number; hwm: number } | null {
  try {
    const s = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)?.[1] ?? 0);
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return null;
  }
}

/** Resets the kernel's peak-RSS counter (VmHWM) of the process. */
function resetPeak(p: Proc) {
  try {
    writeFileSync(`/proc/${p.child.pid}/clear_refs`, '5');
  } catch {
    // Not permitted: the 20 ms samples remain.
  }
  p.samplePeakKb = procStatus(p.child.pid!)?.rss ?? 0;
  p.childPeakKb = 0;
  for (const c of childrenOf(p.child.pid!)) {
    try {
      writeFileSync(`/proc/${c}/clear_refs`, '5');
    } catch {}
  }
}

function startProc(name: string, entry: string, env: Record<string, string>): Proc {
  // Started as production starts them: Node's own type stripping, npm start's environment.
  const child = spawn(process.execPath, [...NODE_TS, join(ROOT, entry)], {
    cwd: ROOT,
    env: {
      ...PRODUCTION_ENV,
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const p: Proc = { name, child, samplePeakKb: 0, childPeakKb: 0, log: '' };
  child.stdout?.on('data', (d) => (p.log += d));
  child.stderr?.on('data', (d) => (p.log += d));
  return p;
}

let procs: Proc[] = [];
const sampler = setInterval(() => {
  for (const p of procs) {
    const s = p.child.pid ? procStatus(p.child.pid) : null;
    if (s) p.samplePeakKb = Math.max(p.samplePeakKb, s.rss);
    for (const c of p.child.pid ? childrenOf(p.child.pid) : []) {
      const cs = procStatus(c);
      if (cs) p.childPeakKb = Math.max(p.childPeakKb, cs.rss, cs.hwm);
    }
  }
}, 20);
sampler.unref();

const peakOf = (p: Proc) => Math.max(p.samplePeakKb, procStatus(p.child.pid!)?.hwm ?? 0);
const rssOf = (p: Proc) => procStatus(p.child.pid!)?.rss ?? 0;

async function waitReady(base: string, p: Proc) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (p.child.exitCode !== null) throw new Error(`${p.name} exited:\n${p.log}`);
    const ok = await fetch(`${base}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await sleep(200);
  }
  throw new Error(`${p.name} not ready:\n${p.log}`);
}

async function stopProc(p: Proc) {
  if (p.child.exitCode !== null) return;
  const gone = new Promise((r) => p.child.once('exit', r));
  p.child.kill('SIGTERM');
  const t = setTimeout(() => p.child.kill('SIGKILL'), 15_000);
  await gone;
  clearTimeout(t);
  // BENCH_LOG_DIR keeps each process's log (with BENCH_LOG_LEVEL=info: every request and its time).
  if (process.env.BENCH_LOG_DIR) writeFileSync(join(process.env.BENCH_LOG_DIR, `${p.name}.log`), p.log);
}

// ---------------------------------------------------------------- database

async function scratchDatabase(dir: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `esign_bench_large_${process.pid}`;
  const admin = process.env.DATABASE_URL;
  if (!admin) {
    const server = await startEmbeddedPostgres(join(dir, 'pg'), { database: name });
    return { url: server.url, drop: () => server.stop() };
  }
  await ensureDatabase(admin, name);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

// ---------------------------------------------------------------- API calls

interface Api {
  base: string;
  key: string;
}

async function call(api: Api, method: string, path: string, body?: unknown) {
  const res = await fetch(`${api.base}/api/v1/${path}`, {
    method,
    headers: { authorization: `Bearer ${api.key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).catch((err) => {
    throw new Error(`${method} ${path}: ${err.cause ?? err}`);
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as any;
}

/** One MCP tool call (`tools/call` on /mcp); its structured result. */
async function mcpCall(api: Api, name: string, args: unknown) {
  const res = await fetch(`${api.base}/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${api.key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  const text = await res.text();
  const reply = res.status < 300 ? (JSON.parse(text) as any) : null;
  if (!reply?.result || reply.result.isError)
    throw new Error(`MCP ${name}: ${res.status} ${text.slice(0, 300)}`);
  return reply.result.structuredContent;
}

async function trpc(base: string, proc: string, input: unknown) {
  const res = await fetch(`${base}/trpc/signing.${proc}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  const body = (await res.json()) as any;
  if (!res.ok) throw new Error(`signing.${proc}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  return body.result.data;
}

const sendBody = (templateId: number, n: number) => ({
  template_id: templateId,
  signers: [{ role: 'Signer', name: `Signer ${n}`, email: `signer${n}@example.com` }],
});

function templateBody(name: string, pdf: Uint8Array, pages: number, copies = 1) {
  const file = Buffer.from(pdf).toString('base64');
  return {
    name,
    documents: Array.from({ length: copies }, (_, i) => ({
      name: copies > 1 ? `${name} ${i + 1}` : name,
      file,
    })),
    fields: [
      { name: 'Name', type: 'text', role: 'Signer', areas: [{ page: 1, x: 0.1, y: 0.85, w: 0.3, h: 0.04 }] },
      {
        name: 'Signature',
        type: 'signature',
        role: 'Signer',
        areas: [{ page: pages, x: 0.5, y: 0.85, w: 0.3, h: 0.06 }],
      },
    ],
  };
}

/** POST /templates as JSON (base64), or as multipart followed by PATCH of its fields (`--upload`). */
async function uploadTemplate(api: Api, spec: DocSpec, pdf: Uint8Array) {
  const body = templateBody(spec.id, pdf, spec.pages, spec.copies);
  if (args.upload === 'mcp') return mcpCall(api, 'create_template', body);
  if (args.upload !== 'multipart') return call(api, 'POST', 'templates', body);
  const form = new FormData();
  for (let i = 0; i < (spec.copies ?? 1); i++)
    form.append(
      'documents[]',
      new Blob([Buffer.from(pdf)], { type: 'application/pdf' }),
      `${spec.id}-${i + 1}.pdf`,
    );
  const res = await fetch(`${api.base}/api/v1/templates`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api.key}` },
    body: form,
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`POST templates (multipart): ${res.status} ${text.slice(0, 300)}`);
  const created = JSON.parse(text) as { id: number };
  return call(api, 'PATCH', `templates/${created.id}`, { fields: body.fields });
}

/** The small caller's thread (bench/small-caller.ts) for one server. */
function smallCaller(api: Api, templateId: number) {
  const worker = new Worker(new URL('./small-caller.ts', import.meta.url), {
    workerData: { base: api.base, key: api.key, templateId },
  });
  const answer = () =>
    new Promise<Call[]>((resolve, reject) => {
      worker.once('error', reject);
      worker.once('message', (m: { calls?: Call[]; error?: string }) => {
        worker.off('error', reject);
        m.error ? reject(new Error(`small call: ${m.error}`)) : resolve(m.calls!);
      });
    });
  return {
    /** `count` calls one after the other (the idle measurement): each one's time. */
    async idle(count: number): Promise<number[]> {
      const calls = answer();
      worker.postMessage({ cmd: 'idle', count });
      return (await calls).map((c) => c.end - c.start);
    },
    /** Calls one after the other until end() (the calls made during a phase). */
    during() {
      worker.postMessage({ cmd: 'start' });
      return {
        end: () => {
          const times = answer();
          worker.postMessage({ cmd: 'stop' });
          return times;
        },
      };
    },
    close: () => worker.terminate(),
  };
}
type SmallCaller = ReturnType<typeof smallCaller>;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)]! : Number.NaN;
};
const p95 = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(s.length * 0.95))]! : Number.NaN;
};

// ---------------------------------------------------------------- phases

interface PhaseResult {
  phase: string;
  ms: number;
  peaks: Record<string, number>;
  after: Record<string, number>;
  calls: number;
  callMedian: number;
  callP95: number;
  detail?: string;
}

/** Runs one operation of a phase and records when it ran (see `phase`). */
type Op = <T>(fn: () => Promise<T>) => Promise<T>;

const clock = () => performance.timeOrigin + performance.now();

/**
 * Runs a phase while the small caller calls, and keeps the small calls that overlapped one of the
 * phase's operations (`op`); a phase that names none is one operation from start to end.
 */
async function phase(
  name: string,
  small: SmallCaller,
  fn: (op: Op) => Promise<string | undefined>,
): Promise<PhaseResult> {
  for (const p of procs) resetPeak(p);
  const ops: [number, number][] = [];
  const op: Op = async (f) => {
    const start = clock();
    try {
      return await f();
    } finally {
      ops.push([start, clock()]);
    }
  };
  const running = small.during();
  const t0 = performance.now();
  const start = clock();
  const detail = await fn(op);
  const ms = performance.now() - t0;
  if (ops.length === 0) ops.push([start, clock()]);
  const calls = await running.end();
  const times = calls
    .filter((c) => ops.some(([a, b]) => c.start < b && a < c.end))
    .map((c) => c.end - c.start);
  if (process.env.BENCH_OPS)
    process.stderr.write(
      `  ${name}: ${ops
        .map(
          ([a, b]) =>
            `op ${(b - a).toFixed(0)} ms [${calls
              .filter((c) => c.start < b && a < c.end)
              .map((c) => (c.end - c.start).toFixed(0))
              .join(' ')}]`,
        )
        .join('; ')}\n`,
    );
  const peaks = Object.fromEntries(
    procs.flatMap((p) => [
      [p.name, MB(peakOf(p))],
      ...(p.childPeakKb ? [[`${p.name} pool worker`, MB(p.childPeakKb)]] : []),
    ]),
  );
  await sleep(1000);
  const after = Object.fromEntries(procs.map((p) => [p.name, MB(rssOf(p))]));
  const r = {
    phase: name,
    ms,
    peaks,
    after,
    calls: times.length,
    callMedian: median(times),
    callP95: p95(times),
    detail,
  };
  process.stderr.write(`  ${JSON.stringify(r)}\n`);
  return r;
}

async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(100);
  }
}

/** Page image files present in the store for `storageKey`, with the time each was first seen. */
function watchPages(filesDir: string, storageKey: string, t0: number) {
  const seen = new Map<number, number>();
  const dir = join(filesDir, storageKey, '..');
  const base = storageKey.split('/').pop()!;
  const scan = () => {
    let names: string[] = [];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const n of names) {
      const m = new RegExp(`^${base.replace(/[.]/g, '\\.')}\\.page-(\\d+)\\.png$`).exec(n);
      if (m && !seen.has(Number(m[1]))) seen.set(Number(m[1]), performance.now() - t0);
    }
  };
  const timer = setInterval(scan, 50);
  return {
    seen,
    stop() {
      clearInterval(timer);
      scan();
    },
  };
}

async function runDocument(spec: DocSpec, ctx: RunContext): Promise<PhaseResult[]> {
  const { api, db, small } = ctx;
  const pdf = await inputPdf(spec);
  const results: PhaseResult[] = [];
  let template: any;
  results.push(
    await phase('upload', small, async () => {
      template = await uploadTemplate(api, spec, pdf);
      const copies = spec.copies ?? 1;
      return `${copies > 1 ? `${copies} × ` : ''}${(pdf.length / 1024 / 1024).toFixed(1)} MB, ${args.upload}`;
    }),
  );
  if (args['stop-after'] === 'upload' || (spec.copies ?? 1) > 1) return results;
  const doc = await db
    .selectFrom('template_documents')
    .select(['storage_key'])
    .where('template_id', '=', template.id)
    .executeTakeFirstOrThrow();
  const t0 = performance.now();
  const pages = watchPages(ctx.filesDir, doc.storage_key, t0);
  results.push(
    await phase('render', small, async () => {
      await waitFor(
        'render job',
        async () => {
          const job = await db
            .selectFrom('jobs')
            .select('status')
            .where('kind', '=', 'template.render_pages')
            .where(sql<string>`payload->>'templateId'`, '=', String(template.id))
            .executeTakeFirst();
          return job?.status === 'done' || job?.status === 'failed';
        },
        900_000,
      );
      pages.stop();
      return pageReport(pages.seen, spec.pages);
    }),
  );
  if (args['stop-after'] === 'render') return results;
  let request: any;
  const send = async (i: number) => {
    const t0 = performance.now();
    const sent = await call(api, 'POST', 'signature_requests', sendBody(template.id, i));
    request ??= sent;
    return performance.now() - t0;
  };
  results.push(
    await phase('send', small, async (op) => {
      const times: number[] = [];
      for (let i = 0; i < SENDS; i++) {
        times.push(await op(() => send(i)));
        await sleep(PAUSE_MS);
      }
      return `${SENDS} sends ${PAUSE_MS} ms apart, each ${median(times).toFixed(0)} ms (median)`;
    }),
  );
  results.push(
    await phase('send, back to back', small, async () => {
      const times: number[] = [];
      for (let i = 0; i < SENDS; i++) times.push(await send(SENDS + i));
      return `${SENDS} sends, each ${median(times).toFixed(0)} ms (median)`;
    }),
  );
  if (args['stop-after'] === 'send') return results;
  const token = new URL(request.signers[0].signing_url).pathname.split('/').pop()!;
  const open = async () => {
    const t0 = performance.now();
    const opened = await trpc(ctx.web, 'open', { token });
    return { opened, ms: performance.now() - t0 };
  };
  /** The first 10 page images, as the signing page loads them. */
  const pageImages = async (opened: any) => {
    const doc = opened.documents[0];
    const urls = Array.from({ length: Math.min(10, doc.page_count) }, (_, i) =>
      doc.page_image_url.replace('{page}', String(i + 1)),
    );
    for (const u of urls) {
      const res = await fetch(u);
      if (!res.ok) throw new Error(`page image: ${res.status}`);
      await res.arrayBuffer();
    }
  };
  results.push(
    await phase('open, back to back', small, async () => {
      const times: number[] = [];
      let last: any;
      for (let i = 0; i < OPENS; i++) {
        const { opened, ms } = await open();
        times.push(ms);
        last = opened;
      }
      await pageImages(last);
      return `${OPENS} opens (each ${median(times).toFixed(0)} ms), first 10 page images`;
    }),
  );
  results.push(
    await phase('sign', small, async (op) => {
      // The signer opens the page (and reloads it), looks at the first pages, signs.
      const times: number[] = [];
      let last: any;
      for (let i = 0; i < OPENS; i++) {
        const { opened, ms } = await op(open);
        times.push(ms);
        last = opened;
        await sleep(PAUSE_MS);
      }
      await op(() => pageImages(last));
      await sleep(PAUSE_MS);
      await op(() =>
        trpc(ctx.web, 'complete', { token, values: { Name: 'Jane Signer', Signature: PNG_DOT } }),
      );
      return `${OPENS} opens ${PAUSE_MS} ms apart (each ${median(times).toFixed(0)} ms), first 10 page images, complete`;
    }),
  );
  if (args['stop-after'] === 'sign') return results;
  results.push(
    await phase('seal', small, async () => {
      await waitFor(
        'sealing',
        async () => {
          const r = await db
            .selectFrom('signature_requests')
            .select(['sealing_status'])
            .where('id', '=', request.id)
            .executeTakeFirstOrThrow();
          if (r.sealing_status === 'failed') throw new Error('sealing failed');
          return r.sealing_status === 'done';
        },
        900_000,
      );
      return undefined;
    }),
  );
  if (args['stop-after'] === 'seal') return results;
  results.push(await phase('verify', small, () => verifySealed(api, request.id)));
  return results;
}

/** POST /documents/verify as JSON (base64), or as a multipart file with `--upload multipart`. */
async function postVerify(api: Api, pdf: Buffer) {
  if (args.upload !== 'multipart')
    return call(api, 'POST', 'documents/verify', { file: pdf.toString('base64') });
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), 'sealed.pdf');
  const res = await fetch(`${api.base}/api/v1/documents/verify`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api.key}` },
    body: form,
  });
  const text = await res.text();
  if (res.status >= 300)
    throw new Error(`POST documents/verify (multipart): ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/**
 * Downloads the sealed document through its /files link (streamed from storage) and posts it to
 * POST /documents/verify (checked in the document pool): the verdict and the download's time.
 */
async function verifySealed(api: Api, requestId: number): Promise<string> {
  const done = await call(api, 'GET', `signature_requests/${requestId}`);
  const t0 = performance.now();
  const res = await fetch(done.documents[0].url);
  if (!res.ok) throw new Error(`sealed document: ${res.status}`);
  const sealed = Buffer.from(await res.arrayBuffer());
  const downloadMs = performance.now() - t0;
  const t1 = performance.now();
  const verdict = await postVerify(api, sealed);
  if (verdict.verdict !== 'authentic') throw new Error(`verify: ${verdict.verdict} (${verdict.summary})`);
  const mb = (sealed.length / 1024 / 1024).toFixed(1);
  return `${mb} MB sealed: download ${(downloadMs / 1000).toFixed(1)} s, verify ${((performance.now() - t1) / 1000).toFixed(1)} s, ${verdict.verdict}`;
}

/** When page images appeared (ms after upload answered): first, 10th, 30th, last, and a scroll check. */
function pageReport(seen: Map<number, number>, pages: number): string {
  const at = (n: number) => (seen.has(n) ? `${(seen.get(n)! / 1000).toFixed(1)} s` : '-');
  const last = Math.max(0, ...seen.keys());
  // A signer who opens the document when the upload answers and scrolls one page per second:
  // pages whose image was not ready when the signer reached them.
  let late = 0;
  for (let n = 1; n <= Math.min(pages, last); n++) if ((seen.get(n) ?? Infinity) > n * 1000) late++;
  return `${seen.size} images; page 1 ${at(1)}, 10 ${at(10)}, 30 ${at(30)}, ${last} ${at(last)}; late at 1 page/s: ${late}`;
}

// ---------------------------------------------------------------- main

interface RunContext {
  api: Api;
  web: string;
  db: Db;
  small: SmallCaller;
  filesDir: string;
}

async function startMode(
  mode: string,
  dbUrl: string,
  dataDir: string,
): Promise<{ api: string; web: string }> {
  const common = {
    DATABASE_URL: dbUrl,
    DATA_DIR: dataDir,
    SECRET_KEY: 'bench-large-documents-secret-0123456789abcdef',
    RATE_LIMIT_PER_MINUTE: '100000',
    ...Object.fromEntries(
      Object.entries(process.env).filter(([k]) => k.startsWith('DOCUMENT_') || k.startsWith('MALLOC_')),
    ),
  };
  const port = String(20000 + (process.pid % 20000));
  if (mode === 'all') {
    const server = startProc('server', 'apps/server/src/main.ts', { ...common, PORT: port });
    procs = [server];
    await waitReady(`http://127.0.0.1:${port}`, server);
    return { api: `http://127.0.0.1:${port}`, web: `http://127.0.0.1:${port}` };
  }
  const webPort = String(Number(port) + 1);
  const split = { ...common, PUBLIC_URL: `http://127.0.0.1:${webPort}` };
  const apiProc = startProc('api', 'apps/api/src/main.ts', { ...split, PORT: port });
  const webProc = startProc('web', 'apps/web/src/main.ts', { ...split, PORT: webPort });
  const worker = startProc('worker', 'apps/worker/src/main.ts', { ...split, PORT: '0' });
  procs = [apiProc, webProc, worker];
  await waitReady(`http://127.0.0.1:${port}`, apiProc);
  await waitReady(`http://127.0.0.1:${webPort}`, webProc);
  return { api: `http://127.0.0.1:${port}`, web: `http://127.0.0.1:${webPort}` };
}

async function runMode(mode: string, specs: DocSpec[]) {
  const dataDir = mkdtempSync(join(tmpdir(), 'esign-bench-large-'));
  chmodSync(dataDir, 0o755);
  const database = await scratchDatabase(dataDir);
  const db = createDb(database.url, { max: 3 });
  let small: SmallCaller | undefined;
  try {
    await migrateToLatest(db);
    const { user } = await db
      .transaction()
      .execute((tx) => createAccount(tx, { email: 'bench@example.com', credits: 1_000_000 }, new Date()));
    const { key } = await issueApiKey(db, { userId: user.id, environment: 'live', permission: 'full' });
    const urls = await startMode(mode, database.url, dataDir);
    const api = { base: urls.api, key };
    const smallTemplate = await call(api, 'POST', 'templates', templateBody('small', await makePdf(1), 1));
    small = smallCaller(api, smallTemplate.id);
    await small.idle(50); // warm-up: the first calls of a fresh server are slower
    const out = [];
    for (const spec of specs) {
      await sleep(2000);
      const idleBefore = median(await small.idle(IDLE_CALLS));
      const idleRss = Object.fromEntries(procs.map((p) => [p.name, MB(rssOf(p))]));
      process.stderr.write(
        `${mode} ${spec.label}: idle call ${idleBefore.toFixed(0)} ms, RSS ${JSON.stringify(idleRss)}\n`,
      );
      const ctx: RunContext = {
        api,
        web: urls.web,
        db,
        small: small!,
        filesDir: join(dataDir, 'files'),
      };
      const phases = await runDocument(spec, ctx).catch(async (err) => {
        await sleep(3000);
        for (const p of procs) {
          const st = (() => {
            try {
              return readFileSync(`/proc/${p.child.pid}/status`, 'utf8').split('\n').slice(0, 3).join(' ');
            } catch {
              return 'gone';
            }
          })();
          process.stderr.write(`${p.name} pid ${p.child.pid}: ${st}\n`);
        }
        for (const p of procs)
          process.stderr.write(
            `--- ${p.name} (exit ${p.child.exitCode ?? p.child.signalCode}):\n${p.log.slice(-4000)}\n`,
          );
        throw err;
      });
      await sleep(2000);
      const idleAfter = median(await small.idle(IDLE_CALLS));
      process.stderr.write(`${mode} ${spec.label}: idle call after its phases ${idleAfter.toFixed(0)} ms\n`);
      const idleMs = Math.min(idleBefore, idleAfter);
      out.push({ mode, doc: spec.label, idleMs, idleBefore, idleAfter, idleRss, phases });
    }
    return out;
  } finally {
    await small?.close();
    for (const p of procs) await stopProc(p);
    procs = [];
    await db.destroy();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- hostile account (issue 29.4)

/** How long A's clients GET its preview, while B creates its template again and again. */
const HAMMER_MS = 60_000;
/** Clients asking for A's preview at once (the report's 8 concurrent GETs), each every 2 s. */
const HOSTILE_GETS = 8;
const GET_EVERY_MS = 2_000;
const CREATIONS = 5;

interface HostileResult {
  mode: string;
  /** B's template creation, alone and while A is hostile: each one's time. */
  alone: number[];
  during: number[];
  bomb: { status: number; ms: number; code?: string };
  /** A's preview GETs while B created its templates: status → count; the first and the others' times. */
  gets: {
    statuses: Record<string, number>;
    firstMs: number;
    laterMedianMs: number;
    laterMaxMs: number;
    count: number;
  };
}

/**
 * POST /templates with one document as a multipart file (streamed to disk as it arrives, as a
 * browser uploads it): whatever the status, its answer and time.
 */
async function postTemplateFile(api: Api, name: string, pdf: Uint8Array) {
  const form = new FormData();
  form.append('name', name);
  form.append('documents[]', new Blob([Buffer.from(pdf)], { type: 'application/pdf' }), `${name}.pdf`);
  const started = performance.now();
  const res = await fetch(`${api.base}/api/v1/templates`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api.key}` },
    body: form,
  });
  const json = (await res.json()) as any;
  return { status: res.status, ms: performance.now() - started, body: json };
}

/**
 * Issue 29, item 4: a 1 MB PDF whose page stream inflates to 1 GiB used to be accepted, every GET
 * of its preview re-ran a 7–14 s render into the memory limit (500 each time), and 8 concurrent
 * GETs made another account's template creation 2.5× slower. Here: B creates a 2-page template
 * CREATIONS times alone; then A posts the bomb (refused: 422 at ingest, or, where it is
 * still accepted, its page is the one hammered) and a page with a 6,400 × 6,400 image (accepted:
 * 117 MB of samples; its render fails on the worker's memory limit), and HOSTILE_GETS clients GET
 * A's preview, each again every GET_EVERY_MS once answered, for HAMMER_MS while B creates its
 * template again and again.
 */
async function runHostile(mode: string): Promise<HostileResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'esign-bench-hostile-'));
  chmodSync(dataDir, 0o755);
  const database = await scratchDatabase(dataDir);
  const db = createDb(database.url, { max: 3 });
  try {
    await migrateToLatest(db);
    const keyOf = async (email: string) => {
      const { user } = await db
        .transaction()
        .execute((tx) => createAccount(tx, { email, credits: 1_000_000 }, new Date()));
      return (await issueApiKey(db, { userId: user.id, environment: 'live', permission: 'full' })).key;
    };
    const urls = await startMode(mode, database.url, dataDir);
    const a = { base: urls.api, key: await keyOf('hostile@example.com') };
    const b = { base: urls.api, key: await keyOf('bystander@example.com') };
    // Small, so that B's own prerender (its share of the pool too) is done before its next upload.
    const doc = await makePdf(2);
    const createB = async () => {
      const res = await postTemplateFile(b, 'b', doc);
      if (res.status !== 201) throw new Error(`B's template: ${res.status} ${JSON.stringify(res.body)}`);
      return res.ms;
    };
    await createB(); // warm-up
    const alone: number[] = [];
    for (let i = 0; i < CREATIONS; i++) alone.push(await createB());
    process.stderr.write(`${mode} hostile: B alone ${alone.map((ms) => ms.toFixed(0)).join(', ')} ms\n`);

    const bombed = await postTemplateFile(a, 'bomb', makeGibBombPdf());
    const bomb = { status: bombed.status, ms: bombed.ms, code: bombed.body?.error?.code };
    process.stderr.write(
      `${mode} hostile: bomb ${bomb.status} ${bomb.code ?? ''} in ${bomb.ms.toFixed(0)} ms\n`,
    );
    const target =
      bombed.status === 201
        ? bombed.body
        : (await postTemplateFile(a, 'image', makeUnrenderableImagePdf())).body;
    const preview: string = target.documents[0].preview_image_url;

    const gets: { status: number; ms: number }[] = [];
    let hammering = true;
    const client = async () => {
      while (hammering) {
        const started = performance.now();
        const res = await fetch(preview);
        await res.arrayBuffer();
        const ms = performance.now() - started;
        gets.push({ status: res.status, ms });
        // A viewer that reloads: the next GET when the answer came, at most every GET_EVERY_MS.
        if (hammering) await sleep(Math.max(0, GET_EVERY_MS - ms));
      }
    };
    const clients = Array.from({ length: HOSTILE_GETS }, client);
    await sleep(500);
    const during: number[] = [];
    const until = performance.now() + HAMMER_MS;
    while (performance.now() < until) during.push(await createB());
    hammering = false;
    await Promise.all(clients);
    process.stderr.write(`${mode} hostile: B during ${during.map((ms) => ms.toFixed(0)).join(', ')} ms\n`);
    const statuses: Record<string, number> = {};
    for (const g of gets) statuses[g.status] = (statuses[g.status] ?? 0) + 1;
    const later = gets.slice(HOSTILE_GETS).map((g) => g.ms);
    return {
      mode,
      alone,
      during,
      bomb,
      gets: {
        statuses,
        firstMs: Math.max(...gets.slice(0, HOSTILE_GETS).map((g) => g.ms)),
        laterMedianMs: median(later),
        laterMaxMs: Math.max(...later),
        count: gets.length,
      },
    };
  } finally {
    for (const p of procs) await stopProc(p);
    procs = [];
    await db.destroy();
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (args.hostile) {
  const results: HostileResult[] = [];
  const loadAtStart = loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
  for (const mode of args.mode!.split(',')) results.push(await runHostile(mode));
  mkdirSync(OUT, { recursive: true });
  writeFileSync(
    join(OUT, `large-documents-hostile-${args.mode}.json`.replaceAll(',', '+')),
    JSON.stringify({ date: new Date().toISOString(), node: process.version, results }, null, 2),
  );
  console.log(
    "| mode | B creates its template alone (median) | during A (median) | ratio | A posts the 1 GiB bomb | A's preview GETs (8 clients, each every 2 s) |",
  );
  console.log('| --- | ---: | ---: | ---: | --- | --- |');
  for (const r of results)
    console.log(
      `| ${r.mode} | ${(median(r.alone) / 1000).toFixed(2)} s | ${(median(r.during) / 1000).toFixed(2)} s | ${(median(r.during) / median(r.alone)).toFixed(2)}× | ${r.bomb.status} ${r.bomb.code ?? ''} in ${(r.bomb.ms / 1000).toFixed(1)} s | ${r.gets.count}: ${JSON.stringify(r.gets.statuses)}; first ${(r.gets.firstMs / 1000).toFixed(1)} s, then median ${r.gets.laterMedianMs.toFixed(0)} ms (max ${r.gets.laterMaxMs.toFixed(0)} ms) |`,
    );
  console.log(
    `\nload average (1, 5, 15 min) at start: ${loadAtStart}, at end: ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  process.exit(0);
}

const specs = DOCS.filter((d) => args.docs!.split(',').includes(d.id));
const report: unknown[] = [];
const load = [
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' '),
];
for (const mode of args.mode!.split(',')) report.push(...(await runMode(mode, specs)));
load.push(
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' '),
);
mkdirSync(OUT, { recursive: true });
const result = { date: new Date().toISOString(), node: process.version, load, report };
writeFileSync(
  join(OUT, `large-documents-${args.docs}-${args.mode}.json`.replaceAll(',', '+')),
  JSON.stringify(result, null, 2),
);
printTable(report as Awaited<ReturnType<typeof runMode>>);
console.log(`\nload average (1, 5, 15 min) at start: ${load[0]}, at end: ${load[1]}`);

function printTable(rows: Awaited<ReturnType<typeof runMode>>) {
  console.log(
    '| mode | document | phase | time | peak RSS (MB) | RSS after (MB) | small call median / p95 (idle) | ratio | detail |',
  );
  console.log('| --- | --- | --- | ---: | --- | --- | --- | ---: | --- |');
  for (const r of rows)
    for (const p of r.phases) {
      const fmt = (o: Record<string, number>) =>
        Object.entries(o)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ');
      console.log(
        `| ${r.mode} | ${r.doc} | ${p.phase} | ${(p.ms / 1000).toFixed(1)} s | ${fmt(p.peaks)} | ${fmt(p.after)} | ${p.callMedian.toFixed(0)} / ${p.callP95.toFixed(0)} ms (${r.idleMs.toFixed(0)}) | ${(p.callMedian / r.idleMs).toFixed(2)}× | ${p.detail ?? ''} |`,
      );
    }
}
