// The worker side of the job queue (jobs.ts): run a due job under a renewed lease, drain the queue,
// and the long-running loop woken by LISTEN/NOTIFY.
import { hostname } from 'node:os';
import type { JobRow } from '@esign/db';
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
  RetryIn,
  RetryLater,
  renewJobLease,
} from './jobs.ts';

/** Runs one due job if there is one; returns whether it found work. */
export async function runOneJob(
  ctx: JobContext,
  handlers: Record<string, JobHandler>,
  {
    workerId,
    leaseMs = JOB_LEASE_MS,
    onClaimed,
  }: { workerId: string; leaseMs?: number | undefined; onClaimed?: () => void },
): Promise<boolean> {
  const job = await claimJob(ctx.db, { workerId, now: ctx.now(), kinds: Object.keys(handlers), leaseMs });
  if (!job) return false;
  // More may be due: an idle sibling slot looks while this one runs the job.
  onClaimed?.();
  await runClaimedJob(ctx, handlers, { job, leaseMs });
  return true;
}

/**
 * Runs a job this worker has claimed, under its renewed lease: the handler, then the job marked
 * done, or failed on the job queue's back-off (never throws for the handler's failure).
 */
export async function runClaimedJob(
  ctx: JobContext,
  handlers: Record<string, JobHandler>,
  { job, leaseMs = JOB_LEASE_MS }: { job: JobRow; leaseMs?: number },
): Promise<void> {
  const log = ctx.logger.child({ jobId: job.id, kind: job.kind, attempt: job.attempts });
  const handler = handlers[job.kind];
  const lease = holdLease(() => renewJobLease(ctx.db, job, { now: ctx.now(), leaseMs }), {
    leaseMs,
    logger: log,
    what: 'job',
  });
  try {
    if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
    const outcome = await handler({ ...ctx, logger: log }, job.payload, job);
    if (outcome !== 'finished') await finishJob(ctx.db, job, ctx.now());
    ctx.deps.metrics?.jobRun(job.kind, 'done');
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const delayMs = err instanceof RetryIn ? err.delayMs : undefined;
    const outcome = await failJob(ctx.db, job, { error: message, now: ctx.now(), delayMs });
    ctx.deps.metrics?.jobRun(job.kind, outcome);
    if (outcome === 'retry' && err instanceof RetryLater)
      log.debug({ reason: message }, 'job will be retried');
    else
      log[outcome === 'failed' ? 'error' : 'warn'](
        { err: err instanceof RetryIn ? err.reason : err },
        `job ${outcome === 'failed' ? 'failed for good' : 'will be retried'}`,
      );
  } finally {
    lease.stop();
  }
}

/** Drains every due job (tests and the all-in-one process after a request use it). */
export async function drainJobs(
  ctx: JobContext,
  handlers: Record<string, JobHandler>,
  max = 1000,
): Promise<number> {
  const workerId = `${hostname()}:${process.pid}:drain`;
  let n = 0;
  while (n < max && (await runOneJob(ctx, handlers, { workerId }))) n++;
  return n;
}

export interface WorkerHandle {
  /** Stops claiming jobs at once (shutdown's first step); stop() then waits for the running ones. */
  drain?(): void;
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
 * Idle slots of one worker, woken one at a time: a notification or a slot that found work wakes
 * the next sleeper, which wakes another if it finds work too, so a backlog brings every slot in
 * within a few claims while one job costs one extra claim, not one per slot.
 */
function idleSlots() {
  const sleepers: (() => void)[] = [];
  let notified = 0;
  return {
    /** Counts notifications: a slot that saw one arrive during its empty claim looks again. */
    get notified() {
      return notified;
    },
    wakeOne(fromNotification = false) {
      if (fromNotification) notified++;
      sleepers.shift()?.();
    },
    wakeAll() {
      notified++;
      for (const wake of sleepers.splice(0)) wake();
    },
    /** Sleeps until woken, or `ms` (the idle poll) when given. */
    sleep(ms: number | null) {
      return new Promise<void>((resolve) => {
        const done = () => {
          if (timer) clearTimeout(timer);
          const i = sleepers.indexOf(done);
          if (i !== -1) sleepers.splice(i, 1);
          resolve();
        };
        const timer = ms === null ? null : setTimeout(done, ms);
        timer?.unref();
        sleepers.push(done);
      });
    },
  };
}

/**
 * A worker loop with `concurrency` slots: each claims jobs until none is due, then sleeps until a
 * notification for one of its kinds (or a sibling that found work) wakes it; the first slot also
 * polls every `pollMs`, the fallback for lost notifications and jobs due later. `stop()` closes the
 * listener and lets running jobs finish.
 */
export function startWorker(
  ctx: JobContext,
  handlers: Record<string, JobHandler>,
  opts: WorkerOptions = {},
): WorkerHandle {
  const workerId = `${hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
  let stopping = false;
  const pollMs = opts.pollMs ?? 500;

  const idle = idleSlots();
  const loop = async (slot: number) => {
    while (!stopping) {
      const seen = idle.notified;
      let worked = false;
      try {
        worked = await runOneJob(ctx, handlers, {
          workerId,
          leaseMs: opts.leaseMs,
          onClaimed: () => idle.wakeOne(),
        });
      } catch (err) {
        ctx.logger.error({ err }, 'worker poll failed');
      }
      if (!worked && !stopping && seen === idle.notified) await idle.sleep(slot === 0 ? pollMs : null);
    }
  };
  const listener = opts.listenUrl
    ? listenForJobs(opts.listenUrl, ctx.logger, (kind) => {
        if (kind === undefined || Object.hasOwn(handlers, kind)) idle.wakeOne(true);
      })
    : null;
  const timers = (opts.periodic ?? []).map((p) =>
    setInterval(() => {
      p.run().catch((err) => ctx.logger.error({ err }, 'periodic task failed'));
    }, p.every),
  );
  const slots = Array.from({ length: opts.concurrency ?? 2 }, (_, slot) => loop(slot));
  return {
    async stop() {
      stopping = true;
      timers.forEach(clearInterval);
      idle.wakeAll();
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
export function listenForJobs(
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
