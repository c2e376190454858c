import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import {
  configureDocumentPool,
  documentPoolStats,
  ingestDocument,
  renderPagePng,
  renderPagesPng,
} from '../src/ingest/index.ts';
import { makePlainPdf, makeSlowPdf } from './ingest-fixtures.ts';

// Issue 9, item 6: one account's hostile documents must not stall another account's upload. The
// pool of ingest worker threads is shared by the process; each account may use only part of it
// (at least one worker stays free for others), and waiting documents are served fairly.

const settle = <T>(p: Promise<T>) =>
  p.then(
    () => ({ at: performance.now(), error: null as unknown }),
    (error: unknown) => ({ at: performance.now(), error }),
  );

describe('the document pool is shared fairly between accounts (issue 9.6)', () => {
  afterEach(() => configureDocumentPool());

  it("four hostile PDFs from account A take at most one of the two workers: account B's normal upload finishes before any of A's", {
    timeout: 180_000,
  }, async () => {
    configureDocumentPool({ size: 2 }); // whatever this machine's cores: one worker per account
    const hostile = makeSlowPdf(); // ~30 s of work each
    const normal = await makePlainPdf(2);
    let aRunningMax = 0;
    const sampler = setInterval(() => {
      aRunningMax = Math.max(aRunningMax, documentPoolStats().runningByKey['account-a'] ?? 0);
    }, 20);
    const started = performance.now();
    // Each hostile document is stopped at its 8 s limit.
    const limits = { timeoutMs: 8_000 };
    const a = Array.from({ length: 4 }, () =>
      settle(ingestDocument({ bytes: hostile, tenant: 'account-a', limits })),
    );
    await new Promise((r) => setTimeout(r, 300)); // A's documents are running or queued
    expect(documentPoolStats()).toMatchObject({ running: 1, queued: 3 });
    const bStarted = performance.now();
    const b = await ingestDocument({ bytes: normal, tenant: 'account-b' });
    const bDone = performance.now();
    expect(b.pages).toHaveLength(2);
    const aOutcomes = await Promise.all(a);
    clearInterval(sampler);
    const aDone = aOutcomes.map((o) => o.at);
    console.log(
      `document pool: B done in ${Math.round(bDone - bStarted)} ms; ` +
        `A's four done at ${aDone.map((t) => `${Math.round((t - started) / 100) / 10} s`).join(', ')}`,
    );
    // B did not wait for A: done before the first of A's documents was stopped at its limit
    // (before, B waited behind A's first two documents, then A's next two took the workers).
    expect(bDone).toBeLessThan(Math.min(...aDone));
    // A never had more than one worker, and each of its documents met the time limit.
    expect(aRunningMax).toBe(1);
    for (const o of aOutcomes)
      expect(o.error).toMatchObject({
        code: 'invalid_document',
        message: expect.stringMatching(/took too long/),
      });
  });
});

describe('page rendering runs in the document pool (issue 9.6)', () => {
  it("a 6 kB page that takes pdf.js ~20 s to draw never blocks the caller's event loop, and its time limit stops it with invalid_document", {
    timeout: 60_000,
  }, async () => {
    const hostile = makeSlowPdf(1, 2_000_000);
    expect(hostile.length).toBeLessThan(8_000);
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const started = performance.now();
    const err = await renderPagePng(hostile, 1, { width: 600, limits: { timeoutMs: 3_000 } }).catch((e) => e);
    lag.disable();
    expect(err).toMatchObject({ code: 'invalid_document', message: expect.stringMatching(/took too long/) });
    expect(performance.now() - started).toBeLessThan(10_000);
    // Before, pdf.js drew on the caller's thread: the event loop stood still for ~20 s.
    expect(lag.max / 1e6).toBeLessThan(500);
  });
});

describe('many pages are drawn from one parse, in page order, off the caller (issue 18)', () => {
  afterEach(() => configureDocumentPool());

  it("a 20-page document is drawn in a worker process: every page's PNG arrives in page order while the caller's event loop keeps turning", {
    timeout: 120_000,
  }, async () => {
    const pdf = await makePlainPdf(20);
    const lag = monitorEventLoopDelay({ resolution: 10 });
    const arrived: number[] = [];
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    lag.enable();
    const count = await renderPagesPng(
      pdf,
      Array.from({ length: 20 }, (_, i) => i + 1),
      (page, png) => {
        expect(Buffer.from(png.subarray(1, 4)).toString()).toBe('PNG');
        arrived.push(page);
      },
      { width: 300 },
    );
    lag.disable();
    clearInterval(ticker);
    expect(count).toBe(20);
    expect(arrived).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    // pdf.js drew in another process: this thread's timers ran throughout.
    expect(ticks).toBeGreaterThan(0);
    expect(lag.max / 1e6).toBeLessThan(500);
  });

  it('pages past the end are skipped and the page count is returned; a bad page number is a RangeError before any work', async () => {
    const pdf = await makePlainPdf(2);
    const arrived: number[] = [];
    expect(await renderPagesPng(pdf, [2, 3, 4], (page) => arrived.push(page), { width: 100 })).toBe(2);
    expect(arrived).toEqual([2]);
    await expect(renderPagesPng(pdf, [0], () => {}, {})).rejects.toBeInstanceOf(RangeError);
  });

  it('a worker over its memory limit (DOCUMENT_MEMORY_MB) is ended: the call fails with invalid_document, the caller is unharmed, and the next call gets a fresh worker', {
    timeout: 120_000,
  }, async () => {
    const pdf = await makePlainPdf(3);
    configureDocumentPool({ maxHeapMb: 64 });
    const err = await renderPagesPng(pdf, [1, 2, 3], () => {}, { width: 8000 }).catch((e) => e);
    expect(err).toMatchObject({
      code: 'invalid_document',
      message: expect.stringMatching(/too much memory/),
    });
    expect(documentPoolStats()).toMatchObject({ running: 0, queued: 0 });
    configureDocumentPool();
    const arrived: number[] = [];
    await renderPagesPng(pdf, [1, 2, 3], (page) => arrived.push(page), { width: 300 });
    expect(arrived).toEqual([1, 2, 3]);
  });
});
