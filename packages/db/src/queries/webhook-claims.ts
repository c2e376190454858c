import { CompiledQuery } from 'kysely';
import { type Executor, preparedSql } from '../connection.ts';
import type { Environment, JobRow } from '../schema.ts';
import { type JobHold, jobClaimCtes } from './jobs.ts';

// Claiming webhook deliveries and recording their outcomes (issue 16, issue 31, issue 43;
// docs/webhooks.md, How deliveries are made). One home per rule: the job claim is jobClaimCtes
// (jobs.ts), the delivery claim is deliveryClaimCtes and the outcome record is outcomeRecordCtes
// below; the worker's batch statement and the claim of one delivery by id are built from them.
// Fixed texts sent as prepared statements: planned once per connection, never built per call.

/** A claimed job, with the delivery it woke when the same statement could claim that delivery. */
export interface DeliveryBatchRow extends JobRow {
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

/** One attempt's outcome, as recorded (webhook_attempts, webhook_deliveries, the retry's job). */
export interface DeliveryOutcomeRow {
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
  /** The data sent, already serialised (JSON), when it was built fresh: kept as the event's last data. */
  dataJson?: string;
  /**
   * The job that woke the attempt: finished by the same statement while it is still its holder's;
   * null for an attempt no job woke (a test event sent at once, a "retry now").
   */
  job: JobHold | null;
}

export interface DeliveryClaim {
  /** The job kind that wakes deliveries (`webhook.deliver`); a retry's job is queued with it. */
  kind: string;
  workerId: string;
  /** Jobs to claim at most; 0 records only. */
  limit: number;
  jobLeaseUntil: Date;
  deliveryLeaseUntil: Date;
  /** A delivery with this many attempts made is left to the job handler (it decides: failed). */
  maxAttempts: number;
  /** Event types never retried: a later attempt of one is left to the job handler. */
  neverRetried: readonly string[];
  /** max_attempts of a retry's wake-up job. */
  retryJobMaxAttempts: number;
}

/** A delivery claimed for its next attempt, with its event and endpoint (deliveryClaimCtes' `claimed`). */
export interface ClaimedDeliveryRow {
  d_id: number;
  d_attempt: number;
  d_uuid: string;
  event_id: string;
  type: string;
  event_created_at: Date;
  object_type: string;
  object_id: number;
  account_id: number;
  environment: Environment;
  url: string;
  headers: Record<string, string>;
  secret: string;
}

/** Where the parts of a delivery claim come from in the statement that embeds it (SQL expressions). */
interface DeliveryClaimSql {
  /** A query of the ids of the deliveries to claim. */
  ids: string;
  now: string;
  leaseUntil: string;
  maxAttempts: string;
  neverRetried: string;
  /** `skip locked` (a batch: never waits, no deadlock between batches) or '' (one delivery: waits). */
  lock: 'skip locked' | '';
}

/**
 * The delivery claim, the one home of its rule: a delivery whose next attempt needs no decision in
 * code (pending, due, free, to an enabled endpoint or a webhook.test, attempts left, not a retry of
 * a never-retried type, no attempt left unrecorded by a dead worker) gets its lease (a new
 * `locked_by` UUID), one more attempt, and its attempt row, written before the request goes out so
 * that an attempt whose worker dies stays on record. Three CTEs: `free`, `claimed` (the
 * ClaimedDeliveryRow columns), `started`.
 */
function deliveryClaimCtes(p: DeliveryClaimSql): string {
  return `free as (
    select d.id from webhook_deliveries d
    where d.id in (${p.ids})
      and d.status = 'pending'
      and (d.next_attempt_at is null or d.next_attempt_at <= ${p.now})
      and (d.locked_until is null or (d.attempts = 0 and d.locked_until <= ${p.now}))
      and d.attempts < ${p.maxAttempts}
    order by d.id
    for update ${p.lock}
  ), claimed as (
    update webhook_deliveries d set attempts = d.attempts + 1, locked_by = gen_random_uuid(),
      locked_until = ${p.leaseUntil}, updated_at = ${p.now}
    from free, webhook_events e, webhook_endpoints w
    where d.id = free.id and e.id = d.event_id and w.id = d.endpoint_id
      and (d.attempts = 0 or e.type <> all(${p.neverRetried}))
      and (w.enabled or e.type = 'webhook.test')
    returning d.id as d_id, d.attempts as d_attempt, d.locked_by as d_uuid, e.id as event_id, e.type,
      e.created_at as event_created_at, e.object_type, e.object_id, e.account_id, e.environment,
      w.url, w.headers, w.secret
  ), started as (
    insert into webhook_attempts (delivery_id, attempt, delivery_uuid, started_at)
    select d_id, d_attempt, d_uuid, ${p.now}::timestamptz from claimed
  )`;
}

/**
 * The outcome record, the one home of its rule: `input` (the outcomes, $1 as outcomesJson), each
 * attempt's result, the events' last known data, the jobs that woke them done while still their
 * holders', the deliveries' new state fenced by the lease (only the attempt that still holds it
 * decides what happens next: `recorded`), and each retry's wake-up job, due later on the webhook
 * back-off (no notification). $2 is now, $3 the job kind, $4 the retry job's max_attempts.
 */
const OUTCOME_RECORD_CTES = `input as (
    select * from jsonb_to_recordset($1::jsonb) as i(delivery_id integer, uuid uuid,
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
  ), finished_job as (
    update jobs j set status = 'done', finished_at = $2, locked_until = null, last_error = null
    from input i
    where j.id = i.job_id and j.locked_by = i.job_locked_by and j.attempts = i.job_attempts
    returning j.id
  ), recorded as (
    update webhook_deliveries d set status = i.status, last_status_code = i.status_code,
      last_error = i.error, next_attempt_at = i.next_at,
      completed_at = case when i.status = 'pending' then null else $2::timestamptz end,
      locked_by = null, locked_until = null, updated_at = $2
    from input i where d.id = i.delivery_id and d.locked_by = i.uuid
    returning d.id, i.status, i.next_at, i.next_attempt
  ), retry as (
    insert into jobs (kind, payload, run_at, max_attempts, unique_key)
    select $3, jsonb_build_object('deliveryId', id), next_at, $4, $3 || ':' || id || ':' || next_attempt
    from recorded where status = 'pending'
    on conflict (unique_key) where status in ('queued', 'running') do nothing
  )`;

const CLAIMED_COLUMNS = `claimed.d_id, claimed.d_attempt, claimed.d_uuid, claimed.event_id, claimed.type,
  claimed.event_created_at, claimed.object_type, claimed.object_id, claimed.account_id,
  claimed.environment, claimed.url, claimed.headers, claimed.secret`;

const JOB_COLUMNS = `job.id, job.kind, job.payload, job.status, job.run_at, job.attempts, job.max_attempts,
  job.locked_by, job.locked_until, job.last_error, job.unique_key, job.created_at, job.finished_at`;

/** The worker's turn: the outcome record, then the job claim, then the delivery claim of the jobs' deliveries. */
const RECORD_AND_CLAIM_SQL = preparedSql(
  'webhook_record_and_claim',
  `with ${OUTCOME_RECORD_CTES}, ${jobClaimCtes({
    now: '$2',
    workerId: '$6',
    leaseUntil: '$7',
    limit: '$5',
    kind: 'kind = $3',
    also: 'id not in (select job_id from input where job_id is not null)',
  })}, job as (
    select claimed_job.*, case when claimed_job.payload->>'deliveryId' ~ '^[0-9]{1,9}$'
      then (claimed_job.payload->>'deliveryId')::integer end as delivery_id
    from claimed_job
  ), ${deliveryClaimCtes({
    ids: 'select delivery_id from job where delivery_id not in (select delivery_id from input)',
    now: '$2',
    leaseUntil: '$8',
    maxAttempts: '$9',
    neverRetried: '$10::text[]',
    lock: 'skip locked',
  })}
  select r.recorded, c.* from (select coalesce(array_agg(id), '{}') as recorded from recorded) r
  left join (
    select ${JOB_COLUMNS}, ${CLAIMED_COLUMNS}
    from job left join claimed on claimed.d_id = job.delivery_id
  ) c on true
  order by c.run_at, c.id`,
);

/** One delivery claimed by id (a test event sent at once, a "retry now", a job the batch left). */
const CLAIM_ONE_DELIVERY_SQL = preparedSql(
  'webhook_claim_delivery',
  `with ${deliveryClaimCtes({
    ids: '$1::integer',
    now: '$2',
    leaseUntil: '$3',
    maxAttempts: '$4',
    neverRetried: '$5::text[]',
    lock: '',
  })}
  select ${CLAIMED_COLUMNS} from claimed`,
);

/** The outcomes as one JSON array; each `data` goes in as it was serialised for the request. */
function outcomesJson(rows: readonly DeliveryOutcomeRow[]): string {
  const parts = rows.map((r) => {
    const head = JSON.stringify({
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
      has_data: r.dataJson !== undefined,
      job_id: r.job?.id ?? null,
      job_locked_by: r.job?.locked_by ?? null,
      job_attempts: r.job?.attempts ?? null,
    });
    return `${head.slice(0, -1)},"data":${r.dataJson ?? 'null'}}`;
  });
  return `[${parts.join(',')}]`;
}

/**
 * One statement: records `outcomes` (each attempt's result, the events' last known data, the
 * deliveries' new state where the attempt still holds the lease, each retry's wake-up job, the
 * jobs that woke them done), then claims up to `claim.limit` due jobs (FOR UPDATE SKIP LOCKED,
 * oldest first) and, with each, its delivery when its next attempt needs no decision in code:
 * pending, due, free, to an enabled endpoint (or a webhook.test), attempts left, and not a retry of
 * a never-retried type; those get their lease and their attempt row. Returns the ids of the
 * deliveries whose outcome was written (the others were superseded) and the claimed jobs, oldest
 * first, each with its delivery's columns or nulls.
 */
export async function recordAndClaimDeliveries(
  db: Executor,
  outcomes: readonly DeliveryOutcomeRow[],
  claim: DeliveryClaim,
  now: Date,
): Promise<{ recorded: Set<number>; claimed: DeliveryBatchRow[] }> {
  const result = await db.executeQuery<DeliveryBatchRow & { recorded: number[] }>(
    CompiledQuery.raw(RECORD_AND_CLAIM_SQL, [
      outcomesJson(outcomes),
      now,
      claim.kind,
      claim.retryJobMaxAttempts,
      claim.limit,
      claim.workerId,
      claim.jobLeaseUntil,
      claim.deliveryLeaseUntil,
      claim.maxAttempts,
      claim.neverRetried,
    ]),
  );
  const recorded = new Set(result.rows[0]?.recorded ?? []);
  const claimed: DeliveryBatchRow[] = [];
  for (const { recorded: _, ...row } of result.rows) if (row.id !== null) claimed.push(row);
  return { recorded, claimed };
}

/**
 * Claims one delivery for its next attempt when that attempt needs no decision in code
 * (deliveryClaimCtes); undefined otherwise (missing, finished, held, not due, exhausted, disabled,
 * an attempt left unrecorded: the caller decides under the row's lock). Waits for a statement
 * holding the row this instant, then checks it again.
 */
export async function claimDeliveryById(
  db: Executor,
  deliveryId: number,
  claim: Pick<DeliveryClaim, 'deliveryLeaseUntil' | 'maxAttempts' | 'neverRetried'> & { now: Date },
): Promise<ClaimedDeliveryRow | undefined> {
  const result = await db.executeQuery<ClaimedDeliveryRow>(
    CompiledQuery.raw(CLAIM_ONE_DELIVERY_SQL, [
      deliveryId,
      claim.now,
      claim.deliveryLeaseUntil,
      claim.maxAttempts,
      claim.neverRetried,
    ]),
  );
  return result.rows[0];
}

const RENEW_SQL = preparedSql(
  'webhook_renew_leases',
  `with held_jobs as (
    select jobs.id from jobs, jsonb_array_elements($1::jsonb) as x(v)
    where jobs.id = (x.v->>0)::bigint and jobs.locked_by = x.v->>1
      and jobs.attempts = (x.v->>2)::integer and jobs.status = 'running'
    order by jobs.id
    for update of jobs skip locked
  ), held_deliveries as (
    select id from webhook_deliveries where locked_by = any($2::uuid[])
    order by id
    for update skip locked
  ), j as (
    update jobs set locked_until = $3
    from held_jobs where jobs.id = held_jobs.id
    returning jobs.id
  ), d as (
    update webhook_deliveries set locked_until = $4
    from held_deliveries where webhook_deliveries.id = held_deliveries.id
    returning webhook_deliveries.id
  )
  select (select count(*) from j)::int as jobs, (select count(*) from d)::int as deliveries`,
);

/**
 * Extends the leases of the jobs and deliveries in flight; returns how many of each were renewed. A
 * row locked this instant (its outcome being recorded) is skipped, never waited for: the renewal
 * and the record never deadlock, and a row being recorded needs no renewal.
 */
export async function renewDeliveryBatchLeases(
  db: Executor,
  items: readonly { job: JobHold; deliveryUuid: string | null }[],
  leases: { jobUntil: Date; deliveryUntil: Date },
): Promise<{ jobs: number; deliveries: number }> {
  if (items.length === 0) return { jobs: 0, deliveries: 0 };
  const jobs = JSON.stringify(items.map((i) => [i.job.id, i.job.locked_by, i.job.attempts]));
  const uuids = items.flatMap((i) => (i.deliveryUuid ? [i.deliveryUuid] : []));
  const result = await db.executeQuery<{ jobs: number; deliveries: number }>(
    CompiledQuery.raw(RENEW_SQL, [jobs, uuids, leases.jobUntil, leases.deliveryUntil]),
  );
  return result.rows[0]!;
}
