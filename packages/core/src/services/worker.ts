// The worker side of the job queue (jobs.ts): run a due job under a renewed lease, drain the queue,
// and the long-running loop woken by LISTEN/NOTIFY.
import { hostname } from 'node:os';
import pg from 'pg';
import type { Logger } from 'pino';
import {
  claimJob,
  failJob,
  finishJob,
  holdLease,
  JOB_LEASE_MS,
  JOBS_CHANNEL,
  type JobContext,
  type JobHandler,
  RetryLater,
  renewJobLease,
} from './jobs.ts';

/** Runs one due job if there is one; returns whether it found work. */
export async function runOneJob(
  ctx: JobContext,
  handlers: Record<string, JobHandler>,
  workerId: string,
  leaseMs = JOB_LEASE_MS,
): Promise<boolean> {
  const job = await claimJob(ctx.db, workerId, ctx.now(), Object.keys(handlers), leaseMs);
  if (!job) return false;
  const log = ctx.logger.child({ jobId: job.id, kind: job.kind, attempt: job.attempts });
  const handler = handlers[job.kind];
  const lease = holdLease(() => renewJobLease(ctx.db, job, ctx.now(), leaseMs), {
    leaseMs,
    logger: log,
    what: 'job',
  });
  try {
    if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
    await handler({ ...ctx, logger: log }, job.payload, job);
    await finishJob(ctx.db, job, ctx.now());
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const outcome = await failJob(ctx.db, job, message, ctx.now());
    if (outcome === 'retry' && err instanceof RetryLater)
      log.debug({ reason: message }, 'job will be retried');
    else
      log[outcome === 'failed' ? 'error' : 'warn'](
        { err },
        `job ${outcome === 'failed' ? 'failed for good' : 'will be retried'}`,
      );
  } finally {
    lease.stop();
  }
  return true;
}

/** Drains every due job (tests and the all-in-one process after a request use it). */
export async function drainJobs(
  ctx: JobContext,
  handlers: Record<string, JobHandler>,
  max = 1000,
): Promise<number> {
  const workerId = `${hostname()}:${process.pid}:drain`;
  let n = 0;
  while (n < max && (await runOneJob(ctx, handlers, workerId))) n++;
  return n;
}

export interface WorkerHandle {
  stop(): Promise<void>;
}

export interface WorkerOptions {
  concurrency?: number;
  /** Lease of a claimed job, renewed while it runs (default JOB_LEASE_MS). */
  leaseMs?: number;
  /** Idle poll: the fallback when no notification arrives (listener down, clock-delayed jobs). */
  pollMs?: number;
  /** Connection string for a dedicated connection that LISTENs for `enqueueJob`'s notifications. */
  listenUrl?: string;
  periodic?: { every: number; run: () => Promise<void> }[];
}

/**
 * A worker loop with `concurrency` slots: each claims jobs until none is due, then sleeps until the
 * next poll or until a notification for one of its kinds wakes it. `stop()` closes the listener and
 * lets running jobs finish.
 */
export function startWorker(
  ctx: JobContext,
  handlers: Record<string, JobHandler>,
  opts: WorkerOptions = {},
): WorkerHandle {
  const workerId = `${hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
  let stopping = false;
  const pollMs = opts.pollMs ?? 500;

  // A wake ends every idle slot's sleep; the generation counter covers a wake that comes while a
  // slot is between a claim that found nothing and its sleep.
  let wakes = 0;
  const sleepers = new Set<() => void>();
  const wakeAll = () => {
    wakes++;
    for (const wake of [...sleepers]) wake();
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      timer.unref();
      sleepers.add(done);
    });

  const loop = async () => {
    while (!stopping) {
      const seen = wakes;
      let worked = false;
      try {
        worked = await runOneJob(ctx, handlers, workerId, opts.leaseMs);
      } catch (err) {
        ctx.logger.error({ err }, 'worker poll failed');
      }
      if (!worked && !stopping && seen === wakes) await sleep(pollMs);
    }
  };
  const listener = opts.listenUrl
    ? listenForJobs(opts.listenUrl, ctx.logger, (kind) => {
        if (kind === undefined || Object.hasOwn(handlers, kind)) wakeAll();
      })
    : null;
  const timers = (opts.periodic ?? []).map((p) =>
    setInterval(() => {
      p.run().catch((err) => ctx.logger.error({ err }, 'periodic task failed'));
    }, p.every),
  );
  const slots = Array.from({ length: opts.concurrency ?? 2 }, loop);
  return {
    async stop() {
      stopping = true;
      timers.forEach(clearInterval);
      wakeAll();
      await Promise.all([
        listener?.close().catch((err) => ctx.logger.warn({ err }, 'closing the job listener failed')),
        ...slots,
      ]);
    },
  };
}

const LISTEN_RETRY_MIN_MS = 1_000;
const LISTEN_RETRY_MAX_MS = 30_000;

/**
 * Holds one connection that LISTENs on the jobs channel and calls `onNotify(kind)` per
 * notification. A lost or refused connection is retried with back-off (logged at warn; the
 * workers' poll carries on meanwhile); after each (re)connect `onNotify()` runs once without a
 * kind, since jobs committed while nobody listened sent their notifications to no one.
 */
function listenForJobs(
  url: string,
  logger: Logger,
  onNotify: (kind?: string) => void,
): { close(): Promise<void> } {
  let closed = false;
  let client: pg.Client | null = null;
  let failures = 0;
  let retry: NodeJS.Timeout | undefined;
  let connecting: Promise<void> = Promise.resolve();

  const scheduleRetry = (err: unknown) => {
    const delay = Math.min(LISTEN_RETRY_MIN_MS * 2 ** failures, LISTEN_RETRY_MAX_MS);
    failures++;
    logger.warn(
      { err, retryInMs: delay },
      'job listener connection lost or refused; polling until it is back',
    );
    retry = setTimeout(() => {
      retry = undefined;
      connecting = connect();
    }, delay);
    retry.unref();
  };

  const connect = async () => {
    const c = new pg.Client({
      connectionString: url,
      application_name: 'esign-jobs-listen',
      keepAlive: true,
      connectionTimeoutMillis: 10_000,
    });
    let lost = false;
    const onLost = (err: unknown, ended = false) => {
      if (lost) return;
      lost = true;
      if (client === c) client = null;
      if (!ended) c.end().catch(() => {});
      if (!closed) scheduleRetry(err ?? new Error('connection ended'));
    };
    c.on('error', onLost);
    c.on('end', () => onLost(undefined, true));
    c.on('notification', (msg) => {
      if (msg.channel === JOBS_CHANNEL) onNotify(msg.payload ?? undefined);
    });
    try {
      await c.connect();
      await c.query(`listen ${JOBS_CHANNEL}`);
    } catch (err) {
      onLost(err);
      return;
    }
    if (lost) return;
    if (closed) {
      lost = true;
      await c.end().catch(() => {});
      return;
    }
    client = c;
    if (failures > 0) logger.info('job listener reconnected');
    failures = 0;
    onNotify();
  };

  connecting = connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      await connecting;
      const c = client;
      client = null;
      await c?.end();
    },
  };
}
