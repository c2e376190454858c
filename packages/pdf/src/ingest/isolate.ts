/**
 * Runs ingest in a worker thread with a heap limit and a time limit.
 *
 * Parsers fed hostile or damaged files can loop or allocate without bound (a fuzzed PDF sends
 * @libpdf/core's recovery parser into an endless loop that exhausts the heap). In a worker, that
 * costs the worker, not the process: a worker that runs out of memory or time is terminated and
 * the call fails with `invalid_document`.
 *
 * Workers are reused (one idle worker is kept, unref'd so it never keeps the process alive) and
 * at most `MAX_WORKERS` run at once; further calls wait their turn.
 */
import { Worker } from 'node:worker_threads';
import { DocumentInputError } from './errors.ts';
import type { WorkerReply, WorkerRequest } from './isolate-protocol.ts';
import type { IngestedDocument, IngestInput } from './types.ts';

export interface IsolationLimits {
  /** Wall-clock limit for one document (default 60 s). */
  timeoutMs?: number;
  /** Heap limit of the worker in MB (default 1024). Decoded stream buffers live outside it. */
  maxHeapMb?: number;
}

const DEFAULT_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_HEAP_MB = 1024;
const MAX_WORKERS = 2;

interface PooledWorker {
  worker: Worker;
  heapMb: number;
}

const idle: PooledWorker[] = [];
let running = 0;
const waiting: (() => void)[] = [];
let nextId = 1;

async function acquire(): Promise<void> {
  if (running < MAX_WORKERS) {
    running++;
    return;
  }
  await new Promise<void>((resolve) => waiting.push(resolve));
}

function release(): void {
  const next = waiting.shift();
  if (next) next();
  else running--;
}

function spawn(heapMb: number): PooledWorker {
  const worker = new Worker(new URL('./worker.ts', import.meta.url), {
    resourceLimits: { maxOldGenerationSizeMb: heapMb },
    // The worker loads plain erasable TypeScript through Node's own type stripping; a loader
    // inherited from the parent (tsx, a test runner's) is not needed.
    execArgv: [],
    stdout: false,
    stderr: false,
  });
  // A worker stopped after its call was settled (time limit) may still report an error; never
  // let that surface as an unhandled 'error' event, which would crash the process.
  worker.on('error', () => {});
  return { worker, heapMb };
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

function failure(reason: 'memory' | 'time' | 'crash', detail?: string): DocumentInputError {
  const message =
    reason === 'memory'
      ? 'The document needs too much memory to process; it is probably damaged'
      : reason === 'time'
        ? 'The document took too long to process; it is probably damaged'
        : `The document could not be processed${detail ? ` (${detail})` : ''}`;
  return new DocumentInputError('invalid_document', message);
}

function runOn(
  pw: PooledWorker,
  input: IngestInput,
  timeoutMs: number,
): Promise<{ reply: WorkerReply; reusable: boolean }> {
  const { worker } = pw;
  const id = nextId++;
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      fn();
    };
    const onMessage = (reply: WorkerReply) => {
      if (reply.id === id) finish(() => resolve({ reply, reusable: true }));
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
    const timer = setTimeout(() => {
      finish(() => reject(failure('time')));
      void worker.terminate();
    }, timeoutMs);
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.ref();
    // A copy is transferred: the caller keeps its bytes intact.
    const bytes = input.bytes.slice();
    const request: WorkerRequest = { id, bytes, password: input.password, tagErrors: input.tagErrors };
    worker.postMessage(request, [bytes.buffer as ArrayBuffer]);
  });
}

/** Ingests in a worker thread; see the module comment. */
export async function ingestIsolated(
  input: IngestInput,
  limits: IsolationLimits = {},
): Promise<IngestedDocument> {
  const timeoutMs = limits.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const heapMb = limits.maxHeapMb ?? DEFAULT_MAX_HEAP_MB;
  await acquire();
  let pw: PooledWorker | undefined;
  try {
    const index = idle.findIndex((w) => w.heapMb === heapMb);
    pw = index >= 0 ? idle.splice(index, 1)[0]! : spawn(heapMb);
    let outcome: { reply: WorkerReply; reusable: boolean };
    try {
      outcome = await runOn(pw, input, timeoutMs);
    } catch (e) {
      void pw.worker.terminate();
      pw = undefined;
      throw e;
    }
    const { reply } = outcome;
    // Keep one idle worker, the most recently used (so a caller's limits keep their worker warm).
    pw.worker.unref();
    for (const old of idle.splice(0)) void old.worker.terminate();
    idle.push(pw);
    pw = undefined;
    if (!reply.ok) {
      if (reply.code) throw new DocumentInputError(reply.code, reply.message);
      throw failure('crash', reply.message);
    }
    return { ...reply.result, pdf: reply.unchanged || !reply.result.pdf ? input.bytes : reply.result.pdf };
  } finally {
    if (pw) void pw.worker.terminate();
    release();
  }
}
