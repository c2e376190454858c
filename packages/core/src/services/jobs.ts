import { hostname } from 'node:os';
import type { Database, Db, Executor, JobRow } from '@esign/db';
import { json } from '@esign/db';
import { type ExpressionBuilder, sql } from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { CoreDeps } from '../context.ts';

/** What a job handler gets: no actor; the job's own payload says what to do. */
export interface JobContext {
  db: Db;
  logger: Logger;
  config: Config;
  deps: CoreDeps;
  now: () => Date;
}

/**
 * Thrown by a handler when the work is in hand elsewhere (another process holds it right now): the
 * job is retried like any failure, but it is an expected race, logged at debug without a stack.
 */
export class RetryLater extends Error {}

/**
 * Runs one job. It resolves `'finished'` when it already marked its own job done in its last write
 * (finishedJobColumns; one statement fewer), otherwise the worker marks it done afterwards.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: most handlers return nothing
export type JobHandler = (
  ctx: JobContext,
  payload: Record<string, unknown>,
  job: JobRow,
) => Promise<void | 'finished'>;

export interface EnqueueOptions {
  kind: string;
  payload?: Record<string, unknown>;
  runAt?: Date;
  maxAttempts?: number;
  /** While a queued or running job has this key, enqueueing another is a no-op. */
  uniqueKey?: string;
}

/** The channel `enqueueJob` notifies (payload: the job's kind) and workers LISTEN on. */
export const JOBS_CHANNEL = 'esign_jobs';

/**
 * Writes a job; call it with the transaction of the change that causes it. A due job also sends
 * a NOTIFY in the same executor, which PostgreSQL delivers on commit (never on rollback), so idle
 * workers start on it at once instead of at their next poll.
 */
export async function enqueueJob(db: Executor, opts: EnqueueOptions): Promise<void> {
  const values = {
    kind: opts.kind,
    payload: json(opts.payload ?? {}),
    run_at: opts.runAt ?? new Date(),
    max_attempts: opts.maxAttempts ?? 10,
    unique_key: opts.uniqueKey ?? null,
  };
  if (opts.uniqueKey) {
    const inserted = await sql`insert into jobs (kind, payload, run_at, max_attempts, unique_key)
      values (${values.kind}, ${values.payload}::jsonb, ${values.run_at}, ${values.max_attempts}, ${values.unique_key})
      on conflict (unique_key) where status in ('queued', 'running') do nothing
      returning id`.execute(db);
    if (!inserted.rows.length) return;
  } else {
    await db.insertInto('jobs').values(values).execute();
  }
  // A job for later is found by the poll; PostgreSQL folds identical notifications of one
  // transaction into one.
  if (values.run_at.getTime() <= Date.now()) {
    await sql`select pg_notify(${JOBS_CHANNEL}, ${values.kind})`.execute(db);
  }
}

/** Back-off between attempts of a failed job: 5 s doubling, capped at one hour. */
export function jobRetryDelayMs(attempts: number): number {
  return Math.min(5_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);
}

/**
 * How long a claimed job stays its worker's without a sign of life. The worker renews it every
 * third of that while the handler runs, so a job of any length keeps its worker, and a job whose
 * worker died (SIGKILL, lost host, lost database) is taken by another within this time.
 */
export const JOB_LEASE_MS = 30_000;

/**
 * Claims one due job with FOR UPDATE SKIP LOCKED, so any number of workers can poll the same
 * table; a job whose worker died is claimed again when its lease runs out.
 */
export async function claimJob(
  db: Db,
  workerId: string,
  now: Date,
  kinds?: string[],
  leaseMs = JOB_LEASE_MS,
): Promise<JobRow | null> {
  const kindFilter = kinds?.length ? sql`and kind in (${sql.join(kinds)})` : sql``;
  const result = await sql<JobRow>`
    update jobs set status = 'running', attempts = attempts + 1, locked_by = ${workerId},
      locked_until = ${new Date(now.getTime() + leaseMs)}
    where id = (
      select id from jobs
      where ((status = 'queued' and run_at <= ${now}) or (status = 'running' and locked_until < ${now})) ${kindFilter}
      order by run_at, id
      limit 1
      for update skip locked
    )
    returning *`.execute(db);
  return result.rows[0] ?? null;
}

/** Only the claim that still holds the job (same worker, same attempt) may touch it. */
const holder = (job: JobRow) => jobHolder(job);

/** Extends a running job's lease; false when the job is no longer this claim's (it was taken over). */
export async function renewJobLease(
  db: Db,
  job: JobRow,
  now: Date,
  leaseMs = JOB_LEASE_MS,
): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ locked_until: new Date(now.getTime() + leaseMs) })
    .where(holder(job))
    .where('status', '=', 'running')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** What finishing a job writes; a handler may write it in its own last statement (JobHandler). */
export function finishedJobColumns(now: Date) {
  return { status: 'done' as const, finished_at: now, locked_until: null, last_error: null };
}

/** The claim of a job that is still its holder's (finishing it in another statement). */
export function jobHolder(job: Pick<JobRow, 'id' | 'locked_by' | 'attempts'>) {
  return (eb: ExpressionBuilder<Database, 'jobs'>) =>
    eb.and([eb('id', '=', job.id), eb('locked_by', '=', job.locked_by), eb('attempts', '=', job.attempts)]);
}

export async function finishJob(db: Db, job: JobRow, now: Date): Promise<void> {
  await db.updateTable('jobs').set(finishedJobColumns(now)).where(holder(job)).execute();
}

export async function failJob(db: Db, job: JobRow, error: string, now: Date): Promise<'retry' | 'failed'> {
  const exhausted = job.attempts >= job.max_attempts;
  await db
    .updateTable('jobs')
    .set({
      status: exhausted ? 'failed' : 'queued',
      last_error: error.slice(0, 2000),
      run_at: new Date(now.getTime() + jobRetryDelayMs(job.attempts)),
      locked_until: null,
      finished_at: exhausted ? now : null,
    })
    .where(holder(job))
    .execute();
  return exhausted ? 'failed' : 'retry';
}

/**
 * Renews a lease every third of `leaseMs` until `stop()`: the heartbeat of a running job or
 * webhook attempt. A renewal that fails (database unreachable) is retried at the next beat; one
 * that finds the lease taken over stops beating and is logged. If the worker dies, the beats stop
 * and the lease runs out, which is what lets another worker resume the work.
 */
export function holdLease(
  renew: () => Promise<boolean>,
  opts: { leaseMs: number; logger?: Logger; what: string },
): { stop(): void } {
  let stopped = false;
  const beat = async () => {
    try {
      if (!(await renew()) && !stopped) {
        stopped = true;
        clearInterval(timer);
        opts.logger?.warn(`${opts.what}: lease lost to another worker; its outcome will not be recorded`);
      }
    } catch (err) {
      opts.logger?.warn({ err }, `${opts.what}: lease renewal failed; retrying`);
    }
  };
  const timer = setInterval(() => void beat(), Math.max(1, Math.floor(opts.leaseMs / 3)));
  timer.unref();
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}

/** Runs one due job if there is one; returns whether it found work. */
export async function runOneJob(
  ctx: JobContext,
  handlers: Record<string, JobHandler>,
  workerId: string,
  leaseMs = JOB_LEASE_MS,
  onClaimed?: () => void,
): Promise<boolean> {
  const job = await claimJob(ctx.db, workerId, ctx.now(), Object.keys(handlers), leaseMs);
  if (!job) return false;
  // More may be due: an idle sibling slot looks while this one runs the job.
  onClaimed?.();
  const log = ctx.logger.child({ jobId: job.id, kind: job.kind, attempt: job.attempts });
  const handler = handlers[job.kind];
  const lease = holdLease(() => renewJobLease(ctx.db, job, ctx.now(), leaseMs), {
    leaseMs,
    logger: log,
    what: 'job',
  });
  try {
    if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
    const outcome = await handler({ ...ctx, logger: log }, job.payload, job);
    if (outcome !== 'finished') await finishJob(ctx.db, job, ctx.now());
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
        worked = await runOneJob(ctx, handlers, workerId, opts.leaseMs, () => idle.wakeOne());
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
