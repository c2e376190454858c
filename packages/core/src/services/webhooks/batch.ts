import type { Db, Environment, JobRow } from '@esign/db';
import { MAX_ATTEMPTS, NEVER_RETRIED_EVENT_TYPES } from '@esign/webhooks';
import { sql } from 'kysely';
import { finishedJobColumns } from '../jobs.ts';
import type { ClaimedDelivery } from './claim.ts';
import { WEBHOOK_DELIVER_JOB } from './options.ts';

// The worker's batched path (issue 16; docs/webhooks.md, How deliveries are made): one statement
// claims many due `webhook.deliver` jobs together with the deliveries they wake, and one statement
// records the outcomes of many attempts. Each row keeps the rules of the one-at-a-time path
// (claim.ts, delivery.ts): the same SKIP LOCKED job claim and leases, the same conditions on the
// delivery, the attempt on record before the request goes out, the outcome fenced by the lease.

/** A claimed job, and the delivery it woke when that delivery could be claimed in the same statement. */
export interface BatchItem {
  job: JobRow;
  delivery: ClaimedDelivery | null;
}

interface BatchRow extends JobRow {
  d_id: number | null;
  d_attempt: number | null;
  d_uuid: string | null;
  event_id: string | null;
  type: string | null;
  event_created_at: Date | null;
  object_type: string | null;
  object_id: number | null;
  account_id: number | null;
  environment: Environment | null;
  url: string | null;
  headers: Record<string, string> | null;
  secret: string | null;
}

function toItem(row: BatchRow, taken: Set<number>): BatchItem {
  const {
    d_id,
    d_attempt,
    d_uuid,
    event_id,
    type,
    event_created_at,
    object_type,
    object_id,
    account_id,
    environment,
    url,
    headers,
    secret,
    ...job
  } = row;
  // Two wake-ups of one delivery in a batch: the first sends, the other finds it held (as before).
  if (d_id === null || taken.has(d_id)) return { job, delivery: null };
  taken.add(d_id);
  return {
    job,
    delivery: {
      id: d_id,
      attempt: d_attempt!,
      deliveryUuid: d_uuid!,
      eventId: event_id!,
      type: type!,
      eventCreatedAt: event_created_at!,
      objectType: object_type!,
      objectId: object_id!,
      scope: { accountId: account_id!, environment: environment! },
      url: url!,
      headers: headers!,
      secret: secret!,
    },
  };
}

/**
 * Claims up to `limit` due `webhook.deliver` jobs (FOR UPDATE SKIP LOCKED, oldest first, like
 * claimJob) and, in the same statement, the delivery of each whose next attempt needs no decision
 * in code: pending, due, free, to an enabled endpoint, attempts left, and no attempt left
 * unrecorded by a dead worker. Those get their lease and their attempt row as claimDelivery would
 * write them. A job whose delivery was not claimed here comes back with `delivery: null` and is run
 * by the job handler (claimDelivery decides: abandoned attempts, exhausted, disabled, held, done).
 */
export async function claimDeliveryBatch(
  db: Db,
  workerId: string,
  limit: number,
  now: Date,
  leases: { jobMs: number; deliveryMs: number },
): Promise<BatchItem[]> {
  const jobLease = new Date(now.getTime() + leases.jobMs);
  const deliveryLease = new Date(now.getTime() + leases.deliveryMs);
  const neverRetried = [...NEVER_RETRIED_EVENT_TYPES];
  const result = await sql<BatchRow>`
    with picked as (
      select id from jobs
      where kind = ${WEBHOOK_DELIVER_JOB}
        and ((status = 'queued' and run_at <= ${now}) or (status = 'running' and locked_until < ${now}))
      order by run_at, id
      limit ${limit}
      for update skip locked
    ), job as (
      update jobs set status = 'running', attempts = jobs.attempts + 1, locked_by = ${workerId},
        locked_until = ${jobLease}
      from picked where jobs.id = picked.id
      returning jobs.*,
        case when jobs.payload->>'deliveryId' ~ '^[0-9]{1,9}$'
          then (jobs.payload->>'deliveryId')::integer end as delivery_id
    ), free as (
      -- Locked in id order and never waited for: a delivery another statement holds this instant
      -- is left to the job handler (no deadlock between two batches sharing duplicate wake-ups).
      select d.id from webhook_deliveries d
      where d.id in (select delivery_id from job)
        and d.status = 'pending'
        and (d.next_attempt_at is null or d.next_attempt_at <= ${now})
        and (d.locked_until is null or (d.attempts = 0 and d.locked_until <= ${now}))
        and d.attempts < ${MAX_ATTEMPTS}
      order by d.id
      for update skip locked
    ), claimed as (
      update webhook_deliveries d set attempts = d.attempts + 1, locked_by = gen_random_uuid(),
        locked_until = ${deliveryLease}, updated_at = ${now}
      from free, webhook_events e, webhook_endpoints w
      where d.id = free.id and e.id = d.event_id and w.id = d.endpoint_id
        and (d.attempts = 0 or e.type <> all(${neverRetried}::text[]))
        and (w.enabled or e.type = 'webhook.test')
      returning d.id as d_id, d.attempts as d_attempt, d.locked_by as d_uuid, e.id as event_id, e.type,
        e.created_at as event_created_at, e.object_type, e.object_id, e.account_id, e.environment,
        w.url, w.headers, w.secret
    ), attempt as (
      insert into webhook_attempts (delivery_id, attempt, delivery_uuid, started_at)
      select d_id, d_attempt, d_uuid, ${now}::timestamptz from claimed
    )
    select job.*, claimed.* from job left join claimed on claimed.d_id = job.delivery_id
    order by job.run_at, job.id`.execute(db);
  const taken = new Set<number>();
  return result.rows.map((row) => {
    const { delivery_id: _, ...rest } = row as BatchRow & { delivery_id: unknown };
    return toItem(rest, taken);
  });
}

/** One attempt's outcome as the batch records it (recordOutcome's columns). */
export interface OutcomeRow {
  deliveryId: number;
  deliveryUuid: string;
  eventId: string;
  /** The attempt number just made; the retry's wake-up job is keyed by the next one. */
  attempt: number;
  status: 'succeeded' | 'pending' | 'failed';
  nextAt: Date | null;
  statusCode: number | null;
  error: string | null;
  errorCode: string | null;
  durationMs: number;
  responseExcerpt: string | null;
  /** The data sent, when it was built fresh (kept as the event's last known data). */
  data?: unknown;
  job: Pick<JobRow, 'id' | 'locked_by' | 'attempts'>;
}

/**
 * Records many attempts in one statement: each attempt's outcome, the events' last known data, the
 * deliveries' new state (only where the attempt still holds the lease), the wake-up job of each
 * retry (on the webhook back-off, due later: no notification), and the jobs that woke them done.
 * Returns the ids of the deliveries whose state was written; the others were superseded.
 */
export async function recordOutcomeBatch(db: Db, rows: OutcomeRow[], now: Date): Promise<Set<number>> {
  if (rows.length === 0) return new Set();
  const input = JSON.stringify(
    rows.map((r) => ({
      delivery_id: r.deliveryId,
      uuid: r.deliveryUuid,
      event_id: r.eventId,
      next_attempt: r.attempt + 1,
      status: r.status,
      next_at: r.nextAt?.toISOString() ?? null,
      status_code: r.statusCode,
      error: r.error,
      error_code: r.errorCode,
      duration_ms: r.durationMs,
      excerpt: r.responseExcerpt,
      has_data: 'data' in r,
      data: 'data' in r ? (r.data ?? null) : null,
      job_id: r.job.id,
      job_locked_by: r.job.locked_by,
      job_attempts: r.job.attempts,
    })),
  );
  const done = finishedJobColumns(now);
  const result = await sql<{ id: number }>`
    with input as (
      select * from jsonb_to_recordset(${input}::jsonb) as i(delivery_id integer, uuid uuid,
        event_id uuid, next_attempt integer, status text, next_at timestamptz, status_code integer,
        error text, error_code text, duration_ms integer, excerpt text, has_data boolean, data jsonb,
        job_id bigint, job_locked_by text, job_attempts integer)
    ), attempt as (
      update webhook_attempts a set duration_ms = i.duration_ms, status_code = i.status_code,
        error = i.error, error_code = i.error_code, response_excerpt = i.excerpt
      from input i where a.delivery_uuid = i.uuid
      returning a.id
    ), event as (
      update webhook_events e set data = i.data
      from input i where e.id = i.event_id and i.has_data and e.data is distinct from i.data
      returning e.id
    ), job as (
      update jobs j set status = ${done.status}, finished_at = ${now}, locked_until = null, last_error = null
      from input i
      where j.id = i.job_id and j.locked_by = i.job_locked_by and j.attempts = i.job_attempts
      returning j.id
    ), delivery as (
      update webhook_deliveries d set status = i.status, last_status_code = i.status_code,
        last_error = i.error, next_attempt_at = i.next_at,
        completed_at = case when i.status = 'pending' then null else ${now}::timestamptz end,
        locked_by = null, locked_until = null, updated_at = ${now}
      from input i where d.id = i.delivery_id and d.locked_by = i.uuid
      returning d.id, i.status, i.next_at, i.next_attempt
    ), retry as (
      insert into jobs (kind, payload, run_at, max_attempts, unique_key)
      select ${WEBHOOK_DELIVER_JOB}, jsonb_build_object('deliveryId', id), next_at, 10,
        ${`${WEBHOOK_DELIVER_JOB}:`} || id || ':' || next_attempt
      from delivery where status = 'pending'
      on conflict (unique_key) where status in ('queued', 'running') do nothing
    )
    select id from delivery`.execute(db);
  return new Set(result.rows.map((r) => r.id));
}

/**
 * Extends the leases of the jobs and deliveries in flight; returns how many of each were renewed. A
 * row locked this instant (its outcome being recorded) is skipped, never waited for: the renewal
 * and the record never deadlock, and a row being recorded needs no renewal.
 */
export async function renewBatchLeases(
  db: Db,
  items: { job: Pick<JobRow, 'id' | 'locked_by' | 'attempts'>; deliveryUuid: string | null }[],
  now: Date,
  leases: { jobMs: number; deliveryMs: number },
): Promise<{ jobs: number; deliveries: number }> {
  if (items.length === 0) return { jobs: 0, deliveries: 0 };
  const jobs = JSON.stringify(items.map((i) => [i.job.id, i.job.locked_by, i.job.attempts]));
  const uuids = items.flatMap((i) => (i.deliveryUuid ? [i.deliveryUuid] : []));
  const result = await sql<{ jobs: number; deliveries: number }>`
    with held_jobs as (
      select jobs.id from jobs, jsonb_array_elements(${jobs}::jsonb) as x(v)
      where jobs.id = (x.v->>0)::bigint and jobs.locked_by = x.v->>1
        and jobs.attempts = (x.v->>2)::integer and jobs.status = 'running'
      order by jobs.id
      for update of jobs skip locked
    ), held_deliveries as (
      select id from webhook_deliveries where locked_by = any(${uuids}::uuid[])
      order by id
      for update skip locked
    ), j as (
      update jobs set locked_until = ${new Date(now.getTime() + leases.jobMs)}
      from held_jobs where jobs.id = held_jobs.id
      returning jobs.id
    ), d as (
      update webhook_deliveries set locked_until = ${new Date(now.getTime() + leases.deliveryMs)}
      from held_deliveries where webhook_deliveries.id = held_deliveries.id
      returning webhook_deliveries.id
    )
    select (select count(*) from j)::int as jobs, (select count(*) from d)::int as deliveries`.execute(db);
  return result.rows[0]!;
}
