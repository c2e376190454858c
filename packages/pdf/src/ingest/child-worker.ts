/**
 * One worker of the document pool as a child process (worker.ts), with the few methods of
 * `worker_threads.Worker` the pool uses (message, error and exit events; postMessage, terminate,
 * ref, unref).
 *
 * A child process, not a thread: a thread's heap, its decoded images and canvases count toward the
 * RSS of the process that answers HTTP, so one 25 MB document could take that process over its
 * memory budget. A child has its own memory, returned to the system when it ends, and a limit of
 * its own: V8's heap limit (`--max-old-space-size`) and, where /proc exists, a watchdog that ends
 * the child once its whole resident memory (heap, decoded streams, canvases) passes the limit.
 * Either way the pool sees `ERR_WORKER_OUT_OF_MEMORY`, as from a thread over its resourceLimits.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { readFileSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { fileURLToPath } from 'node:url';
import { inOrder, removeFiles, spill } from './ipc-files.ts';

export interface DocumentWorker extends EventEmitter {
  postMessage(message: unknown): void;
  terminate(): Promise<void>;
  ref(): void;
  unref(): void;
  /** The child's process id (for tests and diagnostics). */
  readonly pid: number | undefined;
  /** Settles once the child has loaded its code (rejects if it ended first): time limits start here. */
  readonly ready: Promise<void>;
}

const WATCH_EVERY_MS = 50;
/** Longest a worker may take to load its code, however busy the machine. */
const STARTUP_LIMIT_MS = 60_000;
/** The V8 heap's share of the memory limit. */
const HEAP_SHARE = 0.7;
const PAGE_BYTES = 4096;
/** The young generation's semi-space cap, MB (see the fork below). */
const SEMI_SPACE_MB = 16;
/**
 * How much nicer (lower in CPU priority) than its parent a worker runs. Rendering, sealing and
 * verifying a large document are seconds of CPU; at the parent's priority they took CPU from the
 * process that answers HTTP, and other callers' requests waited (issue 18). The kernel still gives
 * an idle machine's CPU to the worker.
 */
export const WORKER_NICENESS = 10;

/** Errors meaning the child could not load its code (reported like a thread's startup failure). */
const STARTUP_CODE =
  /\b(ERR_MODULE_NOT_FOUND|ERR_UNKNOWN_FILE_EXTENSION|ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX|ERR_INVALID_TYPESCRIPT_SYNTAX)\b/;

/** The resident memory each live worker had at its watchdog's last look (bytes; 0 before the first). */
const live = new Map<ChildProcess, number>();

/** The document workers alive in this process now, and their resident memory together (bytes). */
export function documentWorkersMemory(): { workers: number; residentBytes: number } {
  let residentBytes = 0;
  for (const rss of live.values()) residentBytes += rss;
  return { workers: live.size, residentBytes };
}

function residentBytes(pid: number): number | null {
  try {
    const pages = Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
    return Number.isFinite(pages) ? pages * PAGE_BYTES : null;
  } catch {
    return null;
  }
}

function outOfMemory(): Error {
  return Object.assign(new Error('the document worker ran out of memory'), {
    code: 'ERR_WORKER_OUT_OF_MEMORY',
  });
}

/**
 * The child's "ready" message as a promise; a child that never finishes loading is ended after
 * `STARTUP_LIMIT_MS` (its exit then fails the call waiting for it).
 */
function readiness(child: ChildProcess) {
  let started: () => void = () => {};
  let failed: (err: Error) => void = () => {};
  const ready = new Promise<void>((resolve, reject) => {
    started = resolve;
    failed = reject;
  });
  ready.catch(() => {});
  const limit = setTimeout(() => child.kill('SIGKILL'), STARTUP_LIMIT_MS);
  limit.unref();
  const stop = () => clearTimeout(limit);
  ready.then(stop, stop);
  return { ready, started: () => started(), failed: (err: Error) => failed(err) };
}

/**
 * The watchdog of a child's resident memory, every WATCH_EVERY_MS: kept for the metrics
 * (documentWorkersMemory), and over `memoryMb` the child is killed (`onOver` first).
 */
function watchMemory(child: ChildProcess, memoryMb: number, onOver: () => void) {
  live.set(child, 0);
  const timer = setInterval(() => {
    const rss = child.pid ? residentBytes(child.pid) : null;
    if (rss === null) return;
    if (live.has(child)) live.set(child, rss);
    if (rss > memoryMb * 1024 * 1024) {
      onOver();
      child.kill('SIGKILL');
    }
  }, WATCH_EVERY_MS);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      live.delete(child);
    },
  };
}

/** WORKER_NICENESS below this process's priority (at most 19, Unix's lowest). */
function lowerPriority(child: ChildProcess): void {
  if (!child.pid) return;
  try {
    setPriority(child.pid, Math.min(19, getPriority() + WORKER_NICENESS));
  } catch {
    // A platform without priorities: the worker keeps its parent's.
  }
}

/** Whether the child (its process, IPC channel and stderr pipe) keeps this process alive. */
function holdOpen(child: ChildProcess, hold: boolean): void {
  const handles = [child, child.channel, child.stderr] as (
    | { ref?(): void; unref?(): void }
    | null
    | undefined
  )[];
  for (const h of handles) (hold ? h?.ref : h?.unref)?.call(h);
}

/** Starts worker.ts in a child process for one kind of work (its libraries load before `ready`). */
export function forkDocumentWorker(memoryMb: number, kind: 'ingest' | 'render' | 'seal'): DocumentWorker {
  // V8 collects garbage harder as its heap nears this limit; below the resident limit, so a
  // document that needs little live memory is collected in time instead of ended by the watchdog
  // (the process's own code and libraries take about 160 MB besides the heap).
  const heapMb = Math.max(32, Math.floor(memoryMb * HEAP_SHARE));
  const child: ChildProcess = fork(fileURLToPath(new URL('./worker.ts', import.meta.url)), [kind], {
    // worker.ts and what it imports are loaded by Node itself; a loader of the parent's (tsx, a
    // test runner's) is not needed. Parameter properties in the sealing code need the transform.
    execArgv: [
      '--experimental-transform-types',
      '--disable-warning=ExperimentalWarning',
      `--max-old-space-size=${heapMb}`,
      // Node 24's V8 sizes the young generation by the machine's memory: up to 128 MB of new space
      // on a 24 GB host, idle between jobs yet resident. 16 MB semi-spaces (Node's default before)
      // took a 5,000-page ingest from 406 MB to 320 MB for 10 % more time (bench/README.md).
      `--max-semi-space-size=${SEMI_SPACE_MB}`,
    ],
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  lowerPriority(child);
  const events = new EventEmitter() as DocumentWorker;
  let stderr = '';
  let overLimit = false;
  child.stderr?.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const startup = readiness(child);
  /** Files sent that the child may not have read yet: removed once it has ended. */
  const sent: string[] = [];
  child.on('message', (m: { ready?: true; progress?: true }) => {
    if (m?.ready) return startup.started();
    // A reply (not a drawn page): the child has read every file sent to it so far.
    if (!m?.progress) sent.length = 0;
    events.emit('message', m);
  });
  const watchdog = watchMemory(child, memoryMb, () => {
    overLimit = true;
  });
  const exited = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      watchdog.stop();
      removeFiles(sent.splice(0));
      startup.failed(new Error(`the document worker ended before it started (${stderr.slice(-300)})`));
      if (overLimit || /heap out of memory|Reached heap limit/i.test(stderr))
        events.emit('error', outOfMemory());
      else if (STARTUP_CODE.test(stderr))
        events.emit(
          'error',
          Object.assign(new Error(stderr.slice(-500)), { code: STARTUP_CODE.exec(stderr)![1] }),
        );
      else events.emit('exit', code ?? (signal ? 128 : 1));
      resolve();
    }),
  );
  child.on('error', (err) => events.emit('error', err));
  Object.defineProperty(events, 'pid', { get: () => child.pid });
  Object.defineProperty(events, 'ready', { value: startup.ready });
  // Large byte arrays go to the child as files (ipc-files.ts), in the order posted.
  const post = inOrder(async (message: unknown) => {
    const out = await spill(message);
    sent.push(...out.files);
    if (child.connected) child.send(out.message as object);
    else removeFiles(out.files);
  });
  events.postMessage = (message) => post(message);
  events.terminate = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  events.ref = () => holdOpen(child, true);
  events.unref = () => holdOpen(child, false);
  return events;
}
