/**
 * Runs ingest, page rendering and sealing in a pool of worker processes shared by the process,
 * each document with a memory limit and a time limit.
 *
 * Parsers fed hostile or damaged files can loop or allocate without bound (a fuzzed PDF sends
 * @libpdf/core's recovery parser into an endless loop that exhausts the heap). In a worker, that
 * costs the worker, not the process: a worker that runs out of memory or time is terminated and
 * the call fails with `invalid_document`.
 *
 * The pool (isolate-pool.ts) runs at most `size` documents at once, at most `perKey` of them for
 * one key (the account, `IngestInput.tenant`), and serves waiting documents fairly, so one
 * account's slow documents never hold every worker. Workers are reused (one idle worker of each kind is kept
 * for 30 s, unref'd so it never keeps the process alive).
 *
 * Sealing with trust services (a TSA, and the OCSP responders / CRLs the certificates name) runs
 * in a worker too. The worker opens no connection: each HTTP exchange is a `WorkerFetch` message
 * to this process, which makes it with the caller's `TrustFetch` (the service's outbound guard,
 * which cannot cross to another process) and sends the answer back (`answerFetch`). The TSA's
 * settings cross as plain data, and the time it certified comes back with the reply.
 */
import { availableParallelism } from 'node:os';
import type { TrustFetch } from '../seal/trust.ts';
import { TrustServiceError } from '../seal/trust-error.ts';
import { type DocumentWorker, documentWorkersMemory, forkDocumentWorker } from './child-worker.ts';
import { DocumentInputError, SealInputMismatchError } from './errors.ts';
import { DEFAULT_INFLATION_LIMITS, type InflationLimits } from './inflation-limits.ts';
import { createFairScheduler, type PoolLimits, type PoolStats } from './isolate-pool.ts';
import type {
  FetchAnswer,
  WorkerFetch,
  WorkerProgress,
  WorkerReply,
  WorkerRequest,
  WorkerTask,
} from './isolate-protocol.ts';
import type { IngestInput } from './types.ts';

export { DocumentPoolBusyError } from './isolate-pool.ts';

export interface IsolationLimits {
  /** Wall-clock limit for one document, once it runs (default 60 s). */
  timeoutMs?: number;
  /**
   * Memory limit of the worker process in MB (default 480): its V8 heap limit and, where /proc
   * exists, its resident memory (heap, decoded streams, canvases), checked every 50 ms.
   */
  maxHeapMb?: number;
}

export interface DocumentPoolOptions extends IsolationLimits {
  /** Worker processes, the most documents processed at once (default: the cores, 2 to 4). */
  size?: number;
  /** Documents one account may have processed at once (default: half the pool, at least 1). */
  perKey?: number;
  /** Documents that may wait, in all (default 200) and per account (default 20). */
  maxQueued?: number;
  maxQueuedPerKey?: number;
  /**
   * The most one stream of an uploaded PDF, and all of them together, may decompress to, in MB
   * (default 128 and 2048); beyond it the upload is `invalid_document` (inflation.ts).
   */
  streamInflatedMb?: number;
  inflatedMb?: number;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_HEAP_MB = 480;

type Settings = Required<IsolationLimits> & PoolLimits & { inflation: InflationLimits };

const settings: Settings = defaultSettings();

function defaultSettings(): Settings {
  const size = Math.max(2, Math.min(availableParallelism(), 4));
  return {
    size,
    perKey: Math.max(1, Math.floor(size / 2)),
    maxQueued: 200,
    maxQueuedPerKey: 20,
    timeoutMs: DEFAULT_TIMEOUT_MS,
    maxHeapMb: DEFAULT_MAX_HEAP_MB,
    inflation: { ...DEFAULT_INFLATION_LIMITS },
  };
}

const scheduler = createFairScheduler(() => settings);

/**
 * Sets the process's document pool (each process entry calls it once, from its configuration).
 * Unset values keep their defaults; `perKey` defaults to half of `size`.
 */
export function configureDocumentPool(opts: DocumentPoolOptions = {}): void {
  const defaults = defaultSettings();
  const size = opts.size ?? defaults.size;
  Object.assign(settings, {
    size,
    perKey: Math.min(size, opts.perKey ?? Math.max(1, Math.floor(size / 2))),
    maxQueued: opts.maxQueued ?? defaults.maxQueued,
    maxQueuedPerKey: opts.maxQueuedPerKey ?? defaults.maxQueuedPerKey,
    timeoutMs: opts.timeoutMs ?? defaults.timeoutMs,
    maxHeapMb: opts.maxHeapMb ?? defaults.maxHeapMb,
    inflation: {
      streamBytes:
        opts.streamInflatedMb === undefined
          ? defaults.inflation.streamBytes
          : opts.streamInflatedMb * 1024 * 1024,
      documentBytes:
        opts.inflatedMb === undefined ? defaults.inflation.documentBytes : opts.inflatedMb * 1024 * 1024,
    },
  });
  scheduler.dispatch();
}

/** The decompression limits of one ingest: the call's own, else the pool's (`configureDocumentPool`). */
export function inflationLimits(input: Pick<IngestInput, 'inflation'>): InflationLimits {
  return {
    streamBytes: input.inflation?.streamBytes ?? settings.inflation.streamBytes,
    documentBytes: input.inflation?.documentBytes ?? settings.inflation.documentBytes,
  };
}

/** What the pool is doing now, and its worker processes with their resident memory together. */
export interface DocumentPoolStats extends PoolStats {
  /** Worker processes alive (running a document, or idle and kept warm). */
  workers: number;
  /** Their resident memory together, in bytes, as last measured (every 50 ms, where /proc exists). */
  residentBytes: number;
}

/** What the pool is doing now (running and waiting documents, per account; its workers' memory). */
export function documentPoolStats(): DocumentPoolStats {
  return { ...scheduler.stats(), ...documentWorkersMemory() };
}

interface PooledWorker {
  worker: DocumentWorker;
  heapMb: number;
  family: Family;
  /** Ends an idle worker, so the heap of its last document does not stay with the process. */
  idleTimer?: NodeJS.Timeout;
}

const IDLE_WORKER_MS = 30_000;

const idle: PooledWorker[] = [];

/**
 * Workers are reused only for the same kind of work: each kind loads its own libraries (pdf.js and
 * canvas to render; @libpdf/core to ingest; fonts and signing to seal), and one process holding all
 * of them beside a large document would pass its memory limit. Checking signatures (`verify`)
 * needs the sealing family's @libpdf/core and CMS code, so it runs on those workers.
 */
type Family = 'ingest' | 'render' | 'seal';
const familyOf = (op: WorkerTask['op']): Family =>
  op === 'ingest' ? 'ingest' : op === 'render' || op === 'render-pages' ? 'render' : 'seal';
let nextId = 1;
let anonymous = 0;

function spawn(heapMb: number, family: Family): PooledWorker {
  const worker = forkDocumentWorker(heapMb, family);
  // A worker stopped after its call was settled (time limit) may still report an error; never
  // let that surface as an unhandled 'error' event, which would crash the process.
  worker.on('error', () => {});
  return { worker, heapMb, family };
}

function keepIdle(pw: PooledWorker): void {
  pw.worker.unref();
  for (const old of idle.filter((w) => w.family === pw.family)) {
    idle.splice(idle.indexOf(old), 1);
    clearTimeout(old.idleTimer);
    endWorker(old.worker);
  }
  idle.push(pw);
  pw.idleTimer = setTimeout(() => {
    const at = idle.indexOf(pw);
    if (at >= 0) idle.splice(at, 1);
    endWorker(pw.worker);
  }, IDLE_WORKER_MS);
  pw.idleTimer.unref();
}

/** Errors meaning the worker could not load its code at all (not a problem with the document). */
const STARTUP_ERRORS = new Set([
  'ERR_UNKNOWN_FILE_EXTENSION',
  'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX',
  'ERR_INVALID_TYPESCRIPT_SYNTAX',
  'ERR_MODULE_NOT_FOUND',
  'ERR_WORKER_INIT_FAILED',
  'ERR_WORKER_PATH',
]);

export class IsolationUnavailableError extends Error {
  override readonly name = 'IsolationUnavailableError';
}

export function failure(reason: 'memory' | 'time' | 'crash', detail?: string): DocumentInputError {
  const message =
    reason === 'memory'
      ? 'The document needs too much memory to process; it is probably damaged'
      : reason === 'time'
        ? 'The document took too long to process; it is probably damaged'
        : `The document could not be processed${detail ? ` (${detail})` : ''}`;
  return new DocumentInputError('invalid_document', message);
}

/** What a running task may ask of the pool's process besides its reply. */
interface TaskHooks {
  /** Called with each page a `render-pages` task has drawn, before its reply. */
  onProgress?: (progress: WorkerProgress) => void;
  /** Makes the HTTP exchanges a sealing task asks for (its trust services); see `PoolTrust`. */
  fetch?: TrustFetch;
}

type TaskClock = ReturnType<typeof taskClock>;

/** Ends a worker without waiting: terminate only waits for its exit, which cannot fail. */
function endWorker(worker: DocumentWorker): void {
  worker.terminate().catch(() => {});
}

/**
 * The time limit of one task, counted from when the worker got it. A page drawn (`render-pages`
 * progress) gives it its full time again, so a long document that keeps drawing pages is not
 * stopped. It is paused while the worker waits on an exchange the pool's process makes for it
 * (TSA, OCSP, CRL: the network's time, not the document's; each exchange has its own limit, see
 * `answerFetch`), and goes on where it stopped once no exchange is outstanding.
 */
function taskClock(timeoutMs: number, expire: () => void) {
  let timer: NodeJS.Timeout | undefined;
  let left = timeoutMs;
  let since = 0;
  let waits = 0;
  let stopped = false;
  const run = () => {
    since = Date.now();
    timer = setTimeout(expire, left);
  };
  return {
    start: () => !stopped && run(),
    refresh() {
      left = timeoutMs;
      if (timer) {
        clearTimeout(timer);
        run();
      }
    },
    pause() {
      if (waits++ > 0 || !timer) return;
      clearTimeout(timer);
      timer = undefined;
      left -= Date.now() - since;
    },
    resume() {
      if (--waits === 0 && !stopped && !timer) run();
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
    },
  };
}

/**
 * Makes one exchange a sealing worker asked for with the caller's fetch (the service's outbound
 * guard: it lives in this process and cannot cross to the worker) and sends the answer back. The
 * task's clock is paused meanwhile; the exchange itself may take at most the task's time limit
 * (the service's guarded fetch gives up after 20 s, long before).
 */
async function answerFetch(
  worker: DocumentWorker,
  msg: WorkerFetch,
  fetch: TrustFetch | undefined,
  clock: TaskClock,
  limitMs: number,
): Promise<void> {
  clock.pause();
  let limit: NodeJS.Timeout | undefined;
  let answer: FetchAnswer;
  try {
    if (!fetch) throw new Error('this task was given no trust services');
    const overdue = new Promise<never>((_, reject) => {
      limit = setTimeout(() => reject(new Error(`no answer within ${limitMs} ms`)), limitMs);
    });
    const res = await Promise.race([
      fetch(msg.url, { method: msg.method, headers: msg.headers, body: msg.body }),
      overdue,
    ]);
    answer = { fetched: msg.fetch, status: res.status, body: res.body };
  } catch (err) {
    answer = { fetched: msg.fetch, error: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(limit);
  }
  clock.resume();
  // A task settled meanwhile (its worker ended, or it replied without this answer): the worker
  // ignores an answer it no longer waits for, and a gone worker's channel drops it.
  worker.postMessage(answer);
}

function runOn(
  pw: PooledWorker,
  task: WorkerTask,
  timeoutMs: number,
  hooks: TaskHooks = {},
): Promise<WorkerReply> {
  const { worker } = pw;
  const id = nextId++;
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clock.stop();
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      fn();
    };
    const clock = taskClock(timeoutMs, () => {
      finish(() => reject(failure('time')));
      endWorker(worker);
    });
    const onMessage = (reply: WorkerReply | WorkerProgress | WorkerFetch) => {
      if (reply.id !== id) return;
      if ('fetch' in reply)
        answerFetch(worker, reply, hooks.fetch, clock, timeoutMs).catch((err) => {
          // The answer could not be handed over: the task fails instead of waiting for its limit.
          finish(() => reject(err));
          endWorker(worker);
        });
      else if ('progress' in reply) {
        clock.refresh();
        hooks.onProgress?.(reply);
      } else finish(() => resolve(reply));
    };
    const onError = (err: Error & { code?: string }) =>
      finish(() =>
        reject(
          err.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? failure('memory')
            : err.code && STARTUP_ERRORS.has(err.code)
              ? new IsolationUnavailableError(err.message, { cause: err })
              : failure('crash', err.message),
        ),
      );
    const onExit = (code: number) =>
      finish(() => reject(failure('crash', `worker exited with code ${code}`)));
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.ref();
    // The time limit counts from when the worker has loaded its code (a busy machine may take
    // seconds to start a process), not from its start; a worker that never starts reports an
    // 'error' or 'exit'. The message is copied to the worker
    // process: the caller keeps its bytes intact.
    worker.ready.then(
      () => {
        if (settled) return;
        clock.start();
        worker.postMessage({ ...task, id } satisfies WorkerRequest);
      },
      () => {}, // its 'error' or 'exit' event settles the call
    );
  });
}

/**
 * Runs one task on a worker of the pool, once `tenant` may have one (see isolate-pool.ts), with
 * the time and heap limits; a worker that fails or overruns is terminated, not reused.
 */
export async function runInPool(
  task: WorkerTask,
  tenant: string | undefined,
  limits: IsolationLimits,
  hooks: TaskHooks = {},
): Promise<Extract<WorkerReply, { ok: true }>> {
  const timeoutMs = limits.timeoutMs ?? settings.timeoutMs;
  const heapMb = limits.maxHeapMb ?? settings.maxHeapMb;
  // A call without a tenant is its own key: it waits for a free worker, first come first served.
  const release = await scheduler.acquire(tenant ?? `\u0000call-${++anonymous}`);
  let pw: PooledWorker | undefined;
  try {
    const family = familyOf(task.op);
    const index = idle.findIndex((w) => w.heapMb === heapMb && w.family === family);
    pw = index >= 0 ? idle.splice(index, 1)[0]! : spawn(heapMb, family);
    clearTimeout(pw.idleTimer);
    let reply: WorkerReply;
    try {
      reply = await runOn(pw, task, timeoutMs, hooks);
    } catch (e) {
      endWorker(pw.worker);
      pw = undefined;
      throw e;
    }
    // Keep one idle worker of each kind, the most recently used (so a caller's limits keep their worker warm),
    // for a while.
    keepIdle(pw);
    pw = undefined;
    if (reply.ok) return reply;
    if (reply.code) throw new DocumentInputError(reply.code, reply.message);
    if (reply.range) throw new RangeError(reply.message);
    // Not a document error: the caller must not take it for one (a combined file left out).
    if (reply.trust) throw new TrustServiceError(reply.message);
    if (reply.mismatchSha256) throw new SealInputMismatchError(reply.mismatchSha256);
    throw failure('crash', reply.message);
  } finally {
    if (pw) endWorker(pw.worker);
    release();
  }
}
