import { CompiledQuery, sql } from 'kysely';
import { type Executor, json, preparedSql, type Tx } from '../connection.ts';
import type { JobRow } from '../schema.ts';
import { insertInChunks } from './chunks.ts';

// The durable job queue (`jobs`): enqueue (with the NOTIFY that wakes idle workers on commit),
// claim with FOR UPDATE SKIP LOCKED, leases, finish, fail, and the per-kind view for metrics.

/** One job to write. */
export interface JobInsert {
  kind: string;
  payload: Record<string, unknown>;
  runAt: Date;
  maxAttempts: number;
  uniqueKey: string | null;
}

/** The claim of a job that is still its holder's (same worker, same attempt). */
export type JobHold = Pick<JobRow, 'id' | 'locked_by' | 'attempts'>;

/** The bind parameters one job row takes in the insert below. */
const JOB_PARAMETERS = 5;

/**
 * Writes jobs in one statement (more than the parameter limit allows in one: as many as it needs,
 * in the caller's transaction); a job whose `uniqueKey` a queued or running job already has is not
 * written. With `notify`, the same statement sends a NOTIFY on that channel (payload: the kind) for
 * each kind written due by `now`; PostgreSQL delivers it on commit, never on rollback, and folds
 * identical ones.
 */
export async function insertJobs(
  db: Executor,
  jobs: readonly JobInsert[],
  opts: { now: Date; notify: string | null },
): Promise<void> {
  await insertInChunks(jobs, JOB_PARAMETERS, async (chunk) => {
    await insertJobChunk(db, chunk, opts);
    return [];
  });
}

async function insertJobChunk(
  db: Executor,
  jobs: readonly JobInsert[],
  opts: { now: Date; notify: string | null },
): Promise<void> {
  const insert = sql`insert into jobs (kind, payload, run_at, max_attempts, unique_key)
    values ${sql.join(
      jobs.map(
        (o) => sql`(${o.kind}, ${json(o.payload)}::jsonb, ${o.runAt}, ${o.maxAttempts}, ${o.uniqueKey})`,
      ),
    )}
    on conflict (unique_key) where status in ('queued', 'running') do nothing
    returning kind, run_at`;
  if (opts.notify === null) {
    await insert.execute(db);
    return;
  }
  await sql`with written as (${insert})
    select pg_notify(${opts.notify}, kind) from (select distinct kind from written where run_at <= ${opts.now}) k`.execute(
    db,
  );
}

const JOB_COLUMNS = `id, kind, payload, status, run_at, attempts, max_attempts, locked_by, locked_until,
  last_error, unique_key, created_at, finished_at`;

/** Where each part of a job claim comes from in the statement that embeds it (SQL expressions). */
export interface JobClaimSql {
  now: string;
  workerId: string;
  leaseUntil: string;
  limit: string;
  /** A condition on the job's kind (`kind = $3`, `kind = any($4)`...). */
  kind: string;
  /** Further conditions on the picked job (`id not in (...)`), or none. */
  also?: string;
}

/**
 * The job claim, the one home of its rule (issue 43): the oldest jobs that are queued and due, or
 * running with their lease run out, taken with FOR UPDATE SKIP LOCKED (any number of workers can
 * poll the same table) and marked running for `workerId` until `leaseUntil`. Two CTEs, `picked`
 * and `claimed_job` (the claimed rows); claimOneJob runs them alone, the webhook worker's statement
 * together with its deliveries (webhook-claims.ts).
 */
export function jobClaimCtes(p: JobClaimSql): string {
  return `picked as (
    select id from jobs
    where ((status = 'queued' and run_at <= ${p.now}) or (status = 'running' and locked_until < ${p.now}))
      and ${p.kind}${p.also ? ` and ${p.also}` : ''}
    order by run_at, id
    limit ${p.limit}
    for update skip locked
  ), claimed_job as (
    update jobs set status = 'running', attempts = jobs.attempts + 1, locked_by = ${p.workerId},
      locked_until = ${p.leaseUntil}
    from picked where jobs.id = picked.id
    returning ${JOB_COLUMNS.replace(/(\w+)/g, 'jobs.$1')}
  )`;
}

const CLAIM_ONE_SQL = preparedSql(
  'jobs_claim_one',
  `with ${jobClaimCtes({
    now: '$3',
    workerId: '$1',
    leaseUntil: '$2',
    limit: '1',
    kind: '($4::text[] is null or kind = any($4::text[]))',
  })}
  select ${JOB_COLUMNS} from claimed_job`,
);

/**
 * Claims the oldest due job (of `kinds` when given), or one whose lease ran out, with FOR UPDATE
 * SKIP LOCKED: any number of workers can poll the same table.
 */
export async function claimOneJob(
  db: Executor,
  claim: { workerId: string; now: Date; kinds: readonly string[] | null; leaseUntil: Date },
): Promise<JobRow | undefined> {
  const result = await db.executeQuery<JobRow>(
    CompiledQuery.raw(CLAIM_ONE_SQL, [claim.workerId, claim.leaseUntil, claim.now, claim.kinds]),
  );
  return result.rows[0];
}

/** Extends a running job's lease; false when the job is no longer this claim's. */
export async function renewJobLease(db: Executor, job: JobHold, until: Date): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ locked_until: until })
    .where('id', '=', job.id)
    .where('locked_by', '=', job.locked_by)
    .where('attempts', '=', job.attempts)
    .where('status', '=', 'running')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Marks a job done, if it is still this claim's. */
export async function markJobDone(db: Executor, job: JobHold, now: Date): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ status: 'done', finished_at: now, locked_until: null, last_error: null })
    .where('id', '=', job.id)
    .where('locked_by', '=', job.locked_by)
    .where('attempts', '=', job.attempts)
    .execute();
}

/** Puts a failed job back in the queue for `runAt`, or ends it (`failed`), if it is still this claim's. */
export async function markJobFailed(
  db: Executor,
  job: JobHold,
  outcome: { status: 'queued' | 'failed'; error: string; runAt: Date; finishedAt: Date | null },
): Promise<void> {
  await db
    .updateTable('jobs')
    .set({
      status: outcome.status,
      last_error: outcome.error,
      run_at: outcome.runAt,
      locked_until: null,
      finished_at: outcome.finishedAt,
    })
    .where('id', '=', job.id)
    .where('locked_by', '=', job.locked_by)
    .where('attempts', '=', job.attempts)
    .execute();
}

/** One kind's due jobs: waiting (or with an expired lease), running, and the oldest waiting. */
export interface JobQueueCountRow {
  kind: string;
  pending: number;
  running: number;
  oldest: Date | null;
}

/**
 * The due jobs per kind as of `now`, over the queue's own index (queued and running only), the
 * statement stopped by the server after `timeoutMs` (set for this transaction only).
 */
export async function countDueJobs(tx: Tx, now: Date, timeoutMs: number): Promise<JobQueueCountRow[]> {
  await sql`set local statement_timeout = ${sql.lit(Math.max(1, Math.round(timeoutMs)))}`.execute(tx);
  const { rows } = await sql<JobQueueCountRow>`
    select kind,
      count(*) filter (where pending)::int as pending,
      count(*) filter (where not pending)::int as running,
      min(run_at) filter (where pending) as oldest
    from (
      select kind, run_at, (status = 'queued' or locked_until < ${now}) as pending
      from jobs
      where status in ('queued', 'running') and run_at <= ${now}
    ) due
    group by kind`.execute(tx);
  return rows;
}

/** When the queued or running job of this unique key runs (null: none). */
export async function findPendingJobRunAt(db: Executor, uniqueKey: string): Promise<Date | null> {
  const row = await db
    .selectFrom('jobs')
    .select('run_at')
    .where('unique_key', '=', uniqueKey)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirst();
  return row?.run_at ?? null;
}
