/**
 * Who runs next in the document pool: a fixed number of slots shared by the process, a cap on the
 * slots one key (an account) may hold at once, and bounded waiting lines served fairly.
 *
 * - At most `size` documents are processed at once, so the process's memory for this work is at
 *   most `size` documents' worth (each worker has its own heap limit) whatever the load.
 * - One key holds at most `perKey` slots. With the default (half the pool, at least one), one
 *   account's hostile uploads leave the rest of the pool to everyone else.
 * - When a slot frees, the waiting document whose key runs the fewest documents goes next; among
 *   those, the key that started one least recently (so a newcomer is not stuck behind a key with
 *   a long line). Documents of one key run in the order they came.
 * - Beyond `maxQueued` waiting documents (or `maxQueuedPerKey` for one key) a call fails at once
 *   with `DocumentPoolBusyError` instead of holding its bytes in memory indefinitely.
 */

export interface PoolLimits {
  size: number;
  perKey: number;
  maxQueued: number;
  maxQueuedPerKey: number;
}

export class DocumentPoolBusyError extends Error {
  override readonly name = 'DocumentPoolBusyError';
}

export interface PoolStats {
  size: number;
  perKey: number;
  running: number;
  queued: number;
  /** Documents running, per key (keys with none are left out). */
  runningByKey: Record<string, number>;
}

interface KeyState {
  running: number;
  /** Waiting callers, first come first served; each is handed its slot's release. */
  waiting: ((release: () => void) => void)[];
  /** When this key last started a document (a counter, not a clock); 0 = never. */
  lastStart: number;
}

export interface FairScheduler {
  /** Waits for a slot for `key`; resolves with the function that gives it back (call it once). */
  acquire(key: string): Promise<() => void>;
  stats(): PoolStats;
  /** Starts what the current limits allow (after they were raised). */
  dispatch(): void;
}

export function createFairScheduler(limits: () => PoolLimits): FairScheduler {
  const keys = new Map<string, KeyState>();
  let running = 0;
  let queued = 0;
  let starts = 0;

  const stateOf = (key: string) => {
    let s = keys.get(key);
    if (!s) {
      s = { running: 0, waiting: [], lastStart: 0 };
      keys.set(key, s);
    }
    return s;
  };
  const start = (key: string, s: KeyState): (() => void) => {
    running++;
    s.running++;
    s.lastStart = ++starts;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      running--;
      s.running--;
      if (s.running === 0 && s.waiting.length === 0) keys.delete(key);
      dispatch();
    };
  };
  const dispatch = () => {
    const l = limits();
    while (running < l.size) {
      let next: [string, KeyState] | undefined;
      for (const entry of keys) {
        const s = entry[1];
        if (s.waiting.length === 0 || s.running >= l.perKey) continue;
        const best = next?.[1];
        if (!best || s.running < best.running || (s.running === best.running && s.lastStart < best.lastStart))
          next = entry;
      }
      if (!next) return;
      const [key, s] = next;
      queued--;
      const wake = s.waiting.shift()!;
      wake(start(key, s));
    }
  };

  return {
    acquire(key) {
      const l = limits();
      const s = stateOf(key);
      if (running < l.size && s.running < l.perKey && s.waiting.length === 0)
        return Promise.resolve(start(key, s));
      if (queued >= l.maxQueued || s.waiting.length >= l.maxQueuedPerKey) {
        if (s.running === 0 && s.waiting.length === 0) keys.delete(key);
        return Promise.reject(
          new DocumentPoolBusyError(
            queued >= l.maxQueued
              ? `${queued} documents are waiting to be processed; try again shortly`
              : `${s.waiting.length} documents of this account are waiting to be processed; try again shortly`,
          ),
        );
      }
      queued++;
      return new Promise((resolve) => s.waiting.push(resolve));
    },
    stats() {
      const l = limits();
      const runningByKey: Record<string, number> = {};
      for (const [key, s] of keys) if (s.running > 0) runningByKey[key] = s.running;
      return { size: l.size, perKey: l.perKey, running, queued, runningByKey };
    },
    dispatch,
  };
}
