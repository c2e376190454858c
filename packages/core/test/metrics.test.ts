import { readFileSync } from 'node:fs';
import { parseExposition, sampleValue } from '@esign/testing/metrics';
import { describe, expect, it } from 'vitest';
import { cachedRead } from '../src/metrics/cached-read.ts';
import { createMetrics, type JobQueueRow } from '../src/metrics/metrics.ts';

// Issue 27, item 6: the metrics registry on its own, without a process around it.

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe('cachedRead: the job queue is read at most once per interval, however often it is scraped (issue 27.6)', () => {
  it('concurrent and repeated calls within cacheMs share one read', async () => {
    let reads = 0;
    const read = cachedRead(
      async () => {
        reads++;
        await sleep(20);
        return reads;
      },
      200,
      1_000,
    );
    const got = await Promise.all([read(), read(), read()]);
    expect(got).toEqual([
      { ok: true, value: 1 },
      { ok: true, value: 1 },
      { ok: true, value: 1 },
    ]);
    expect(await read()).toEqual({ ok: true, value: 1 });
    expect(reads).toBe(1);
    await sleep(220);
    expect(await read()).toEqual({ ok: true, value: 2 });
    expect(reads).toBe(2);
  });

  it('a read that hangs fails each caller after waitMs, and no second read starts while it runs', async () => {
    let reads = 0;
    let finish: (v: number) => void = () => {};
    const read = cachedRead(
      () => {
        reads++;
        return new Promise<number>((resolve) => {
          finish = resolve;
        });
      },
      1_000,
      50,
    );
    const started = performance.now();
    expect((await read()).ok).toBe(false);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect((await read()).ok).toBe(false);
    expect(reads).toBe(1);
    finish(7);
    await sleep(0);
    expect(await read()).toEqual({ ok: true, value: 7 });
    expect(reads).toBe(1);
  });

  it('a failed read is a failure, not an exception, and is cached like a success', async () => {
    let reads = 0;
    const read = cachedRead(
      async () => {
        reads++;
        throw new Error('database unreachable');
      },
      1_000,
      1_000,
    );
    const first = await read();
    expect(first.ok).toBe(false);
    expect(await read()).toBe(first);
    expect(reads).toBe(1);
  });
});

describe('createMetrics (issue 27.6)', () => {
  const queue = (rows: JobQueueRow[]) => async () => rows;

  it('the job queue per kind: pending, running and the oldest pending age; every known kind has a series', async () => {
    const m = createMetrics({ restarts: 0 });
    const oldest = new Date(Date.now() - 90_000);
    m.watch({
      jobQueue: queue([{ kind: 'mail.send', pending: 4, running: 1, oldestPendingAt: oldest }]),
      jobKinds: ['mail.send', 'request.seal'],
    });
    const s = parseExposition(await m.exposition());
    expect(sampleValue(s, 'esign_job_queue_up')).toBe(1);
    expect(sampleValue(s, 'esign_jobs_pending', { kind: 'mail.send' })).toBe(4);
    expect(sampleValue(s, 'esign_jobs_running', { kind: 'mail.send' })).toBe(1);
    const age = sampleValue(s, 'esign_jobs_oldest_pending_age_seconds', { kind: 'mail.send' })!;
    expect(age).toBeGreaterThanOrEqual(90);
    expect(age).toBeLessThan(120);
    expect(sampleValue(s, 'esign_jobs_pending', { kind: 'request.seal' })).toBe(0);
    expect(sampleValue(s, 'esign_jobs_oldest_pending_age_seconds', { kind: 'request.seal' })).toBe(0);
  });

  it('a database that does not answer does not hang or fail the scrape: esign_job_queue_up 0, no stale per-kind values, the rest reported', async () => {
    const hanging = createMetrics({ restarts: 2, jobQueue: { waitMs: 100 } });
    hanging.watch({ jobQueue: () => new Promise(() => {}), jobKinds: ['mail.send'] });
    const started = performance.now();
    const s = parseExposition(await hanging.exposition());
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(sampleValue(s, 'esign_job_queue_up')).toBe(0);
    expect(s.filter((x) => x.name.startsWith('esign_jobs_'))).toEqual([]);
    expect(sampleValue(s, 'esign_process_restarts')).toBe(2);
    expect(sampleValue(s, 'process_start_time_seconds')).toBeGreaterThan(0);

    const failing = createMetrics({ restarts: 0, jobQueue: { cacheMs: 0 } });
    let down = false;
    failing.watch({
      jobQueue: async () => {
        if (down) throw new Error('connection refused');
        return [{ kind: 'mail.send', pending: 3, running: 0, oldestPendingAt: new Date() }];
      },
    });
    expect(sampleValue(parseExposition(await failing.exposition()), 'esign_jobs_pending')).toBe(3);
    down = true;
    const after = parseExposition(await failing.exposition());
    expect(sampleValue(after, 'esign_job_queue_up')).toBe(0);
    expect(sampleValue(after, 'esign_jobs_pending')).toBeUndefined();
  });

  it('HTTP responses are counted by method, route pattern and status, with their durations; an unknown method is "other"', async () => {
    const m = createMetrics({ restarts: 0 });
    m.httpResponse('GET', '/api/v1/templates/{id}', 200, 0.012);
    m.httpResponse('GET', '/api/v1/templates/{id}', 200, 0.3);
    m.httpResponse('GET', '/api/v1/templates/{id}', 404, 0.002);
    m.httpResponse('PROPFIND', 'unmatched', 404, 0.001);
    const s = parseExposition(await m.exposition());
    const route = { method: 'GET', route: '/api/v1/templates/{id}' };
    expect(sampleValue(s, 'esign_http_requests_total', { ...route, status: '200' })).toBe(2);
    expect(sampleValue(s, 'esign_http_requests_total', { ...route, status: '404' })).toBe(1);
    expect(sampleValue(s, 'esign_http_request_duration_seconds_count', { ...route, status: '200' })).toBe(2);
    expect(
      sampleValue(s, 'esign_http_request_duration_seconds_bucket', { ...route, status: '200', le: '0.025' }),
    ).toBe(1);
    expect(sampleValue(s, 'esign_http_requests_total', { method: 'other', route: 'unmatched' })).toBe(1);
  });

  it('webhook outcomes, sealing failures, job runs and pool checkouts count from zero', async () => {
    const m = createMetrics({ restarts: 0 });
    const before = parseExposition(await m.exposition());
    expect(sampleValue(before, 'esign_webhook_deliveries_total', { outcome: 'failed' })).toBe(0);
    expect(
      sampleValue(before, 'esign_sealing_failures_total', { job: 'request.seal', outcome: 'failed' }),
    ).toBe(0);
    m.webhookAttempt('succeeded');
    m.webhookAttempt('retry');
    m.webhookAttempt('retry');
    m.sealingFailure('request.seal', false);
    m.sealingFailure('signer.copy', true);
    m.jobRun('mail.send', 'done');
    m.dbAcquired(3);
    m.watch({
      dbPool: () => ({ max: 10, total: 4, idle: 1, waiting: 6 }),
      documentPool: () => ({
        size: 2,
        perKey: 1,
        running: 2,
        queued: 5,
        runningByKey: {},
        workers: 3,
        residentBytes: 123_000_000,
      }),
    });
    const s = parseExposition(await m.exposition());
    expect(sampleValue(s, 'esign_webhook_deliveries_total', { outcome: 'succeeded' })).toBe(1);
    expect(sampleValue(s, 'esign_webhook_deliveries_total', { outcome: 'retry' })).toBe(2);
    expect(sampleValue(s, 'esign_sealing_failures_total', { job: 'request.seal', outcome: 'retry' })).toBe(1);
    expect(sampleValue(s, 'esign_sealing_failures_total', { job: 'signer.copy', outcome: 'failed' })).toBe(1);
    expect(sampleValue(s, 'esign_job_runs_total', { kind: 'mail.send', outcome: 'done' })).toBe(1);
    expect(sampleValue(s, 'esign_db_pool_acquire_seconds_count')).toBe(1);
    expect(sampleValue(s, 'esign_db_pool_acquire_seconds_sum')).toBeCloseTo(0.003);
    expect(sampleValue(s, 'esign_db_pool_waiting')).toBe(6);
    expect(sampleValue(s, 'esign_db_pool_total')).toBe(4);
    expect(sampleValue(s, 'esign_document_pool_queued')).toBe(5);
    expect(sampleValue(s, 'esign_document_pool_resident_bytes')).toBe(123_000_000);
    expect(sampleValue(s, 'nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
  });

  it("the README's Monitoring section names every esign_ metric", async () => {
    const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('## Monitoring'));
    const names = [
      ...(await createMetrics({ restarts: 0 }).exposition()).matchAll(/^# HELP (esign_\w+)/gm),
    ].map((m) => m[1]!);
    expect(names.length).toBeGreaterThan(15);
    for (const name of names) expect(section, name).toContain(`\`${name}\``);
  });
});
