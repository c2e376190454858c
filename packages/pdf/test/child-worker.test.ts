import { getPriority } from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { type DocumentWorker, forkDocumentWorker, WORKER_NICENESS } from '../src/ingest/child-worker.ts';

// Issue 18: a large document's rendering, sealing or verifying must not slow other callers'
// requests; the pool's processes run at a lower CPU priority than the process that answers HTTP.

const workers: DocumentWorker[] = [];
afterAll(async () => {
  for (const w of workers) await w.terminate();
});

describe('document pool workers', () => {
  it('run WORKER_NICENESS below the priority of the process that forks them (issue 18)', async () => {
    const worker = forkDocumentWorker(256, 'render');
    workers.push(worker);
    await worker.ready;
    expect(WORKER_NICENESS).toBeGreaterThanOrEqual(5);
    expect(getPriority(worker.pid!)).toBe(Math.min(19, getPriority() + WORKER_NICENESS));
  }, 60_000);
});
