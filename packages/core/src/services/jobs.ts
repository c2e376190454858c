import type { Db, Executor, JobRow, Tx } from '@esign/db';
import {
  claimOneJob,
  countDueJobs,
  insertJobs,
  markJobDone,
  markJobFailed,
  renewJobLease as renewLease,
} from '@esign/db/queries/jobs';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { CoreDeps } from '../context.ts';
import type { JobQueueRow } from '../metrics/metrics.ts';

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
 * Thrown by a handler whose failure is retried on its own back-off (the outboxes'
 * message-retry.ts) instead of the queue's: the job runs again after `delayMs`.
 */
export class RetryIn extends Error {
  readonly delayMs: number;
  readonly reason: unknown;
  constructor(delayMs: number, reason: unknown) {
    super(reason instanceof Error ? reason.message : String(reason));
    this.delayMs = delayMs;
    this.reason = reason;
  }
}

/**
 * Every kind of job core enqueues. `jobHandlers` (src/jobs.ts) declares one handler per kind with
 * `satisfies Record<JobKind, JobHandler>`, so a kind without a handler does not compile. The queue
 * itself takes any string (tests enqueue their own kinds).
 */
export type JobKind =
  | 'mail.send'
  | 'sms.send'
  | 'request.seal'
  | 'signer.copy'
  | 'webhook.deliver'
  | 'template.render_pages'
  | 'bulk.send'
  | 'auth.email_link'
  | 'request.auto_remind';

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
 * Writes a job; call it with the transaction of the change that causes it. See enqueueJobs.
 */
export function enqueueJob(db: Executor, opts: EnqueueOptions): Promise<void> {
  return enqueueJobs(db, [opts]);
}

/**
 * Writes jobs in one statement; call it with the transaction of the change that causes them. A
 * job whose `uniqueKey` a queued or running job already has is not written. For the due ones
 * written, the same statement sends a NOTIFY of their kind, which PostgreSQL delivers on commit
 * (never on rollback) and folds when identical within a transaction, so idle workers start at once
 * instead of at their next poll; a job for later is found by the poll. (One insert and one
 * `pg_notify` per job were two round trips each, and a webhook event took two per endpoint.)
 */
export async function enqueueJobs(db: Executor, jobs: readonly EnqueueOptions[]): Promise<void> {
  if (jobs.length === 0) return;
  const now = new Date();
  const rows = jobs.map((o) => ({
    kind: o.kind,
    payload: o.payload ?? {},
    runAt: o.runAt ?? now,
    maxAttempts: o.maxAttempts ?? 10,
    uniqueKey: o.uniqueKey ?? null,
  }));
  // Only jobs due now wake anyone; a batch of jobs for later needs no NOTIFY.
  await insertJobs(db, rows, { now, notify: rows.every((r) => r.runAt > now) ? null : JOBS_CHANNEL });
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
  db: Executor,
  {
    workerId,
    now,
    kinds,
    leaseMs = JOB_LEASE_MS,
  }: { workerId: string; now: Date; kinds?: string[]; leaseMs?: number },
): Promise<JobRow | null> {
  const job = await claimOneJob(db, {
    workerId,
    now,
    kinds: kinds?.length ? kinds : null,
    leaseUntil: new Date(now.getTime() + leaseMs),
  });
  return job ?? null;
}

/** Extends a running job's lease; false when the job is no longer this claim's (it was taken over). */
export async function renewJobLease(
  db: Executor,
  job: JobRow,
  { now, leaseMs = JOB_LEASE_MS }: { now: Date; leaseMs?: number },
): Promise<boolean> {
  return renewLease(db, job, new Date(now.getTime() + leaseMs));
}

export async function finishJob(db: Executor, job: JobRow, now: Date): Promise<void> {
  await markJobDone(db, job, now);
}

export async function failJob(
  db: Executor,
  job: JobRow,
  { error, now, delayMs }: { error: string; now: Date; delayMs?: number | undefined },
): Promise<'retry' | 'failed'> {
  const exhausted = job.attempts >= job.max_attempts;
  await markJobFailed(db, job, {
    status: exhausted ? 'failed' : 'queued',
    error: error.slice(0, 2000),
    runAt: new Date(now.getTime() + (delayMs ?? jobRetryDelayMs(job.attempts))),
    finishedAt: exhausted ? now : null,
  });
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
  const beat = () =>
    renew().then(
      (held) => {
        if (held || stopped) return;
        stopped = true;
        clearInterval(timer);
        opts.logger?.warn(`${opts.what}: lease lost to another worker; its outcome will not be recorded`);
      },
      (err: unknown) => opts.logger?.warn({ err }, `${opts.what}: lease renewal failed; retrying`),
    );
  const timer = setInterval(beat, Math.max(1, Math.floor(opts.leaseMs / 3)));
  timer.unref();
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}

/**
 * The job queue per kind, as of `now`: one statement over the queue's own index (queued and
 * running jobs only, never the history of done ones), stopped by the server after `timeoutMs`.
 * Jobs due later (retries on their back-off) are not counted. Run in a transaction of its own: the
 * timeout holds for the rest of it.
 */
export async function readJobQueue(tx: Tx, now: Date, timeoutMs = 2_000): Promise<JobQueueRow[]> {
  const rows = await countDueJobs(tx, now, timeoutMs);
  return rows.map((r) => ({
    kind: r.kind,
    pending: r.pending,
    running: r.running,
    oldestPendingAt: r.oldest,
  }));
}
