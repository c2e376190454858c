import { hostname } from 'node:os';
import type { Db, Executor, JobRow } from '@esign/db';
import { json } from '@esign/db';
import { sql } from 'kysely';
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

export type JobHandler = (ctx: JobContext, payload: Record<string, unknown>, job: JobRow) => Promise<void>;

export interface EnqueueOptions {
  kind: string;
  payload?: Record<string, unknown>;
  runAt?: Date;
  maxAttempts?: number;
  /** While a queued or running job has this key, enqueueing another is a no-op. */
  uniqueKey?: string;
}

/** Writes a job; call it with the transaction of the change that causes it. */
export async function enqueueJob(db: Executor, opts: EnqueueOptions): Promise<void> {
  const values = {
    kind: opts.kind,
    payload: json(opts.payload ?? {}),
    run_at: opts.runAt ?? new Date(),
    max_attempts: opts.maxAttempts ?? 10,
    unique_key: opts.uniqueKey ?? null,
  };
  if (opts.uniqueKey) {
    await sql`insert into jobs (kind, payload, run_at, max_attempts, unique_key)
      values (${values.kind}, ${values.payload}::jsonb, ${values.run_at}, ${values.max_attempts}, ${values.unique_key})
      on conflict (unique_key) where status in ('queued', 'running') do nothing`.execute(db);
    return;
  }
  await db.insertInto('jobs').values(values).execute();
}

/** Back-off between attempts of a failed job: 5 s doubling, capped at one hour. */
export function jobRetryDelayMs(attempts: number): number {
  return Math.min(5_000 * 2 ** Math.max(0, attempts - 1), 3_600_000);
}

const LEASE_MS = 5 * 60_000;

/**
 * Claims one due job with FOR UPDATE SKIP LOCKED, so any number of workers can poll the same
 * table; a job whose worker died is claimed again when its lease runs out.
 */
export async function claimJob(
  db: Db,
  workerId: string,
  now: Date,
  kinds?: string[],
): Promise<JobRow | null> {
  const kindFilter = kinds?.length ? sql`and kind in (${sql.join(kinds)})` : sql``;
  const result = await sql<JobRow>`
    update jobs set status = 'running', attempts = attempts + 1, locked_by = ${workerId},
      locked_until = ${new Date(now.getTime() + LEASE_MS)}
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

export async function finishJob(db: Db, job: JobRow, now: Date): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ status: 'done', finished_at: now, locked_until: null, last_error: null })
    .where('id', '=', job.id)
    .where('locked_by', '=', job.locked_by)
    .execute();
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
    .where('id', '=', job.id)
    .where('locked_by', '=', job.locked_by)
    .execute();
  return exhausted ? 'failed' : 'retry';
}

/** Runs one due job if there is one; returns whether it found work. */
export async function runOneJob(
  ctx: JobContext,
  handlers: Record<string, JobHandler>,
  workerId: string,
): Promise<boolean> {
  const job = await claimJob(ctx.db, workerId, ctx.now(), Object.keys(handlers));
  if (!job) return false;
  const log = ctx.logger.child({ jobId: job.id, kind: job.kind, attempt: job.attempts });
  const handler = handlers[job.kind];
  try {
    if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
    await handler({ ...ctx, logger: log }, job.payload, job);
    await finishJob(ctx.db, job, ctx.now());
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const outcome = await failJob(ctx.db, job, message, ctx.now());
    log[outcome === 'failed' ? 'error' : 'warn'](
      { err },
      `job ${outcome === 'failed' ? 'failed for good' : 'will be retried'}`,
    );
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

/** A polling worker loop with `concurrency` slots; `stop()` lets running jobs finish. */
export function startWorker(
  ctx: JobContext,
  handlers: Record<string, JobHandler>,
  opts: {
    concurrency?: number;
    pollMs?: number;
    periodic?: { every: number; run: () => Promise<void> }[];
  } = {},
): WorkerHandle {
  const workerId = `${hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
  let stopping = false;
  const pollMs = opts.pollMs ?? 500;
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms).unref());
  const loop = async () => {
    while (!stopping) {
      let worked = false;
      try {
        worked = await runOneJob(ctx, handlers, workerId);
      } catch (err) {
        ctx.logger.error({ err }, 'worker poll failed');
      }
      if (!worked) await sleep(pollMs);
    }
  };
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
      await Promise.all(slots);
    },
  };
}
