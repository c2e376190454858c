import { CompiledQuery, sql } from 'kysely';
import { compiledOnce, type Executor, json, preparedSql, type Tx } from '../connection.ts';
import type { Environment, JobRow, WebhookAttemptRow } from '../schema.ts';
import type { Scope } from '../scope.ts';
import type { NewAuditEvent } from './audit.ts';
import { insertInChunks } from './chunks.ts';

// The webhook worker's batched statements (issue 16, issue 31; docs/webhooks.md, How deliveries
// are made): one statement records the outcomes of the attempts that finished and claims the next
// due `webhook.deliver` jobs together with the deliveries they wake; one renews every lease in
// flight. Fixed texts sent as prepared statements: planned once per connection, never built or
// compiled per call.

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
  /** The job that woke the attempt: finished by the same statement while it is still its holder's. */
  job: Pick<JobRow, 'id' | 'locked_by' | 'attempts'>;
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

const JOB_COLUMNS = `jobs.id, jobs.kind, jobs.payload, jobs.status, jobs.run_at, jobs.attempts,
  jobs.max_attempts, jobs.locked_by, jobs.locked_until, jobs.last_error, jobs.unique_key,
  jobs.created_at, jobs.finished_at`;

const RECORD_AND_CLAIM_SQL = preparedSql(
  'webhook_record_and_claim',
  `with input as (
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
    -- Fencing: only the attempt that still holds the lease decides what happens next.
    update webhook_deliveries d set status = i.status, last_status_code = i.status_code,
      last_error = i.error, next_attempt_at = i.next_at,
      completed_at = case when i.status = 'pending' then null else $2::timestamptz end,
      locked_by = null, locked_until = null, updated_at = $2
    from input i where d.id = i.delivery_id and d.locked_by = i.uuid
    returning d.id, i.status, i.next_at, i.next_attempt
  ), retry as (
    -- The retry's wake-up job, due later on the webhook back-off (no notification).
    insert into jobs (kind, payload, run_at, max_attempts, unique_key)
    select $3, jsonb_build_object('deliveryId', id), next_at, $10, $3 || ':' || id || ':' || next_attempt
    from recorded where status = 'pending'
    on conflict (unique_key) where status in ('queued', 'running') do nothing
  ), picked as (
    select id from jobs
    where kind = $3
      and ((status = 'queued' and run_at <= $2) or (status = 'running' and locked_until < $2))
      and id not in (select job_id from input)
    order by run_at, id
    limit $4
    for update skip locked
  ), job as (
    update jobs set status = 'running', attempts = jobs.attempts + 1, locked_by = $5, locked_until = $6
    from picked where jobs.id = picked.id
    returning ${JOB_COLUMNS},
      case when jobs.payload->>'deliveryId' ~ '^[0-9]{1,9}$'
        then (jobs.payload->>'deliveryId')::integer end as delivery_id
  ), free as (
    -- Locked in id order and never waited for: a delivery another statement holds this instant
    -- is left to the job handler (no deadlock between two batches sharing duplicate wake-ups).
    select d.id from webhook_deliveries d
    where d.id in (select delivery_id from job)
      and d.id not in (select delivery_id from input)
      and d.status = 'pending'
      and (d.next_attempt_at is null or d.next_attempt_at <= $2)
      and (d.locked_until is null or (d.attempts = 0 and d.locked_until <= $2))
      and d.attempts < $8
    order by d.id
    for update skip locked
  ), claimed as (
    update webhook_deliveries d set attempts = d.attempts + 1, locked_by = gen_random_uuid(),
      locked_until = $7, updated_at = $2
    from free, webhook_events e, webhook_endpoints w
    where d.id = free.id and e.id = d.event_id and w.id = d.endpoint_id
      and (d.attempts = 0 or e.type <> all($9::text[]))
      and (w.enabled or e.type = 'webhook.test')
    returning d.id as d_id, d.attempts as d_attempt, d.locked_by as d_uuid, e.id as event_id, e.type,
      e.created_at as event_created_at, e.object_type, e.object_id, e.account_id, e.environment,
      w.url, w.headers, w.secret
  ), started as (
    -- Written before the request goes out, so an attempt whose worker dies stays on record.
    insert into webhook_attempts (delivery_id, attempt, delivery_uuid, started_at)
    select d_id, d_attempt, d_uuid, $2::timestamptz from claimed
  )
  select r.recorded, c.* from (select coalesce(array_agg(id), '{}') as recorded from recorded) r
  left join (
    select job.id, job.kind, job.payload, job.status, job.run_at, job.attempts, job.max_attempts,
      job.locked_by, job.locked_until, job.last_error, job.unique_key, job.created_at, job.finished_at,
      claimed.d_id, claimed.d_attempt, claimed.d_uuid, claimed.event_id, claimed.type,
      claimed.event_created_at, claimed.object_type, claimed.object_id, claimed.account_id,
      claimed.environment, claimed.url, claimed.headers, claimed.secret
    from job left join claimed on claimed.d_id = job.delivery_id
  ) c on true
  order by c.run_at, c.id`,
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
      job_id: r.job.id,
      job_locked_by: r.job.locked_by,
      job_attempts: r.job.attempts,
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
      claim.limit,
      claim.workerId,
      claim.jobLeaseUntil,
      claim.deliveryLeaseUntil,
      claim.maxAttempts,
      claim.neverRetried,
      claim.retryJobMaxAttempts,
    ]),
  );
  const recorded = new Set(result.rows[0]?.recorded ?? []);
  const claimed: DeliveryBatchRow[] = [];
  for (const { recorded: _, ...row } of result.rows) if (row.id !== null) claimed.push(row);
  return { recorded, claimed };
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
  items: readonly { job: Pick<JobRow, 'id' | 'locked_by' | 'attempts'>; deliveryUuid: string | null }[],
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

// ------------------------------------------------------------------ one delivery at a time

/** A delivery with its event and endpoint, as the claims read it. */
export interface DeliveryJoinRow {
  id: number;
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

/** DeliveryJoinRow's columns (d: delivery, e: event, w: endpoint). */
const DELIVERY_JOIN_COLUMNS = [
  'd.id',
  'e.id as event_id',
  'e.type',
  'e.created_at as event_created_at',
  'e.object_type',
  'e.object_id',
  'e.account_id',
  'e.environment',
  'w.url',
  'w.headers',
  'w.secret',
] as const;

/**
 * The first attempt of a due, free, pending delivery to an enabled endpoint (or a webhook.test),
 * taken in one statement with its attempt row: the delivery's lease (`locked_by` = the attempt's
 * delivery UUID) and `attempts = 1`. Undefined when the delivery is not in that state.
 */
export async function claimFirstDeliveryAttempt(
  db: Executor,
  claim: { deliveryId: number; deliveryUuid: string; now: Date; leaseUntil: Date },
): Promise<DeliveryJoinRow | undefined> {
  const { deliveryId, deliveryUuid, now } = claim;
  return db
    .with('claimed', (qb) =>
      qb
        .updateTable('webhook_deliveries as d')
        .from(['webhook_events as e', 'webhook_endpoints as w'])
        .set({ attempts: 1, locked_by: deliveryUuid, locked_until: claim.leaseUntil, updated_at: now })
        .whereRef('e.id', '=', 'd.event_id')
        .whereRef('w.id', '=', 'd.endpoint_id')
        .where('d.id', '=', deliveryId)
        .where('d.status', '=', 'pending')
        .where('d.attempts', '=', 0)
        .where((eb) => eb.or([eb('d.locked_until', 'is', null), eb('d.locked_until', '<=', now)]))
        .where((eb) => eb.or([eb('d.next_attempt_at', 'is', null), eb('d.next_attempt_at', '<=', now)]))
        .where((eb) => eb.or([eb('w.enabled', '=', true), eb('e.type', '=', 'webhook.test')]))
        .returning(DELIVERY_JOIN_COLUMNS),
    )
    .with('attempt', (qb) =>
      qb
        .insertInto('webhook_attempts')
        .columns(['delivery_id', 'attempt', 'delivery_uuid', 'started_at'])
        .expression((eb) =>
          eb
            .selectFrom('claimed')
            .select((s) => [
              'claimed.id',
              s.lit(1).as('attempt'),
              s.val(deliveryUuid).as('uuid'),
              s.val(now).as('at'),
            ]),
        ),
    )
    .selectFrom('claimed')
    .selectAll()
    .executeTakeFirst();
}

/** A delivery locked for its next attempt (FOR UPDATE SKIP LOCKED), with what the claim decides on. */
export type LockedDeliveryRow = DeliveryJoinRow & {
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  next_attempt_at: Date | null;
  locked_until: Date | null;
  enabled: boolean;
};

/** The delivery locked until the transaction ends; undefined when missing or locked by another statement. */
export async function lockDeliveryForAttempt(
  tx: Tx,
  deliveryId: number,
): Promise<LockedDeliveryRow | undefined> {
  return tx
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .innerJoin('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
    .select([
      ...DELIVERY_JOIN_COLUMNS,
      'd.status',
      'd.attempts',
      'd.next_attempt_at',
      'd.locked_until',
      'w.enabled',
    ])
    .where('d.id', '=', deliveryId)
    .forUpdate('d')
    .skipLocked()
    .executeTakeFirst();
}

/** Marks the attempts of a delivery that never got an outcome (their worker stopped) with `error`. */
export async function markUnfinishedAttempts(
  tx: Tx,
  deliveryId: number,
  outcome: { error: string; errorCode: string },
): Promise<void> {
  await tx
    .updateTable('webhook_attempts')
    .set({ error: outcome.error, error_code: outcome.errorCode })
    .where('delivery_id', '=', deliveryId)
    .where('duration_ms', 'is', null)
    .where('error', 'is', null)
    .execute();
}

/** Ends a delivery as failed with `lastError` (and no status code, when `clearStatusCode`). */
export async function markDeliveryFailed(
  tx: Tx,
  deliveryId: number,
  outcome: { lastError: string; clearStatusCode: boolean; now: Date },
): Promise<void> {
  await tx
    .updateTable('webhook_deliveries')
    .set({
      status: 'failed',
      last_error: outcome.lastError,
      ...(outcome.clearStatusCode ? { last_status_code: null } : {}),
      next_attempt_at: null,
      locked_by: null,
      locked_until: null,
      completed_at: outcome.now,
      updated_at: outcome.now,
    })
    .where('id', '=', deliveryId)
    .execute();
}

/** Takes a locked delivery for attempt number `attempt`: its lease, then its attempt row (written before the request). */
export async function startDeliveryAttempt(
  tx: Tx,
  attempt: { deliveryId: number; attempt: number; deliveryUuid: string; leaseUntil: Date; now: Date },
): Promise<void> {
  await tx
    .updateTable('webhook_deliveries')
    .set({
      attempts: attempt.attempt,
      locked_by: attempt.deliveryUuid,
      locked_until: attempt.leaseUntil,
      updated_at: attempt.now,
    })
    .where('id', '=', attempt.deliveryId)
    .execute();
  await tx
    .insertInto('webhook_attempts')
    .values({
      delivery_id: attempt.deliveryId,
      attempt: attempt.attempt,
      delivery_uuid: attempt.deliveryUuid,
      started_at: attempt.now,
    })
    .execute();
}

/**
 * The last data sent for an object (the event `eventId`'s own first, then the newest), for an
 * event whose object is gone; undefined when none was ever sent.
 */
export async function findLastSentEventData(
  db: Executor,
  scope: Scope,
  object: { objectType: string; objectId: number; eventId: string },
): Promise<{ data: unknown } | undefined> {
  return db
    .selectFrom('webhook_events')
    .select('data')
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .where('object_type', '=', object.objectType)
    .where('object_id', '=', object.objectId)
    .where('data', 'is not', null)
    .orderBy(sql`id = ${object.eventId}`, 'desc')
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** One attempt's outcome (recordDeliveryOutcome). */
export interface SingleOutcome {
  deliveryId: number;
  deliveryUuid: string;
  eventId: string;
  status: 'succeeded' | 'pending' | 'failed';
  nextAt: Date | null;
  statusCode: number | null;
  error: string | null;
  errorCode: string | null;
  durationMs: number;
  responseExcerpt: string | null;
  /** The data sent (JSON) when built fresh: kept as the event's last known data. */
  dataJson: string | null;
  /** The job that woke the attempt, finished in the same statement while still its holder's. */
  job: Pick<JobRow, 'id' | 'locked_by' | 'attempts'> | null;
  now: Date;
}

/**
 * One statement: the attempt's outcome, the event's last known data, the job that woke it done,
 * and the delivery's new state, fenced by the lease (only the attempt that still holds it writes).
 * True when the delivery's state was written (false: superseded).
 */
export async function recordDeliveryOutcome(db: Executor, o: SingleOutcome): Promise<boolean> {
  const row = await db
    .with('attempt', (qb) =>
      qb
        .updateTable('webhook_attempts')
        .set({
          duration_ms: o.durationMs,
          status_code: o.statusCode,
          error: o.error,
          error_code: o.errorCode,
          response_excerpt: o.responseExcerpt,
        })
        .where('delivery_uuid', '=', o.deliveryUuid)
        .returning('id'),
    )
    .with('event', (qb) =>
      qb
        .updateTable('webhook_events')
        .set({ data: o.dataJson ?? sql`data` })
        .where('id', '=', o.eventId)
        .where(
          o.dataJson === null
            ? sql<boolean>`false`
            : sql<boolean>`data is distinct from ${o.dataJson}::jsonb`,
        )
        .returning('id'),
    )
    .with('job', (qb) =>
      qb
        .updateTable('jobs')
        .set({ status: 'done', finished_at: o.now, locked_until: null, last_error: null })
        .where((eb) =>
          o.job
            ? eb.and([
                eb('id', '=', o.job.id),
                eb('locked_by', '=', o.job.locked_by),
                eb('attempts', '=', o.job.attempts),
              ])
            : sql<boolean>`false`,
        )
        .returning('id'),
    )
    .with('delivery', (qb) =>
      qb
        .updateTable('webhook_deliveries')
        .set({
          status: o.status,
          last_status_code: o.statusCode,
          last_error: o.error,
          next_attempt_at: o.nextAt,
          completed_at: o.status === 'pending' ? null : o.now,
          locked_by: null,
          locked_until: null,
          updated_at: o.now,
        })
        .where('id', '=', o.deliveryId)
        .where('locked_by', '=', o.deliveryUuid)
        .returning('id'),
    )
    .selectFrom('delivery')
    .select('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Extends one attempt's lease while it still holds the delivery; false once it does not. */
export async function renewDeliveryLease(
  db: Executor,
  lease: { deliveryId: number; deliveryUuid: string; until: Date },
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ locked_until: lease.until })
    .where('id', '=', lease.deliveryId)
    .where('locked_by', '=', lease.deliveryUuid)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** A pending delivery of one event to one endpoint, due at `now`; returns its id. */
export async function insertDelivery(
  tx: Executor,
  delivery: { eventId: string; endpointId: number; now: Date },
): Promise<number> {
  const row = await tx
    .insertInto('webhook_deliveries')
    .values({
      event_id: delivery.eventId,
      endpoint_id: delivery.endpointId,
      status: 'pending',
      next_attempt_at: delivery.now,
      created_at: delivery.now,
      updated_at: delivery.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * "Retry now": a delivery not held by an attempt becomes pending and due at `now` again (a
 * finished one too).
 */
export async function reopenDelivery(tx: Executor, deliveryId: number, now: Date): Promise<void> {
  await tx
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_at: now, completed_at: null, updated_at: now })
    .where('id', '=', deliveryId)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .execute();
}

// ------------------------------------------------------------------ records (API and dashboard)

/** A delivery as the records list shows it, with its event. */
export interface DeliveryListRow {
  id: number;
  endpoint_id: number;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: number;
  next_attempt_at: Date | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Date;
  completed_at: Date | null;
  event_id: string;
  event_type: string;
  event_created_at: Date;
}

/**
 * Deliveries of an account side's endpoints, newest first: one by `id`, or a page (`limit`) after
 * `cursor` filtered by endpoint, event and status.
 */
export async function findDeliveries(
  db: Executor,
  scope: Scope,
  filter: {
    id?: number;
    endpointId?: number;
    eventId?: string;
    status?: 'pending' | 'succeeded' | 'failed';
    cursor?: number;
    limit?: number;
  },
): Promise<DeliveryListRow[]> {
  let q = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
    .innerJoin('webhook_endpoints as w', 'w.id', 'd.endpoint_id')
    .select([
      'd.id',
      'd.endpoint_id',
      'd.status',
      'd.attempts',
      'd.next_attempt_at',
      'd.last_status_code',
      'd.last_error',
      'd.created_at',
      'd.completed_at',
      'e.id as event_id',
      'e.type as event_type',
      'e.created_at as event_created_at',
    ])
    .where('w.account_id', '=', scope.accountId)
    .where('w.environment', '=', scope.environment);
  if (filter.id !== undefined) q = q.where('d.id', '=', filter.id);
  if (filter.endpointId !== undefined) q = q.where('d.endpoint_id', '=', filter.endpointId);
  if (filter.eventId !== undefined) q = q.where('d.event_id', '=', filter.eventId);
  if (filter.status !== undefined) q = q.where('d.status', '=', filter.status);
  if (filter.cursor !== undefined) q = q.where('d.id', '<', filter.cursor);
  if (filter.limit !== undefined) q = q.orderBy('d.id', 'desc').limit(filter.limit);
  return q.execute();
}

/** Every attempt of these deliveries, by delivery then attempt number. */
export async function findAttemptsOfDeliveries(
  db: Executor,
  deliveryIds: readonly number[],
): Promise<WebhookAttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('delivery_id', 'in', deliveryIds)
    .orderBy('delivery_id')
    .orderBy('attempt')
    .execute();
}

// ------------------------------------------------------------------ endpoints

/** An endpoint's columns without its signing secret. */
export interface WebhookEndpointPublicRow {
  id: number;
  account_id: number;
  environment: Environment;
  url: string;
  events: string[];
  headers: Record<string, string>;
  enabled: boolean;
  created_at: Date;
  updated_at: Date;
}

const ENDPOINT_COLUMNS = [
  'id',
  'account_id',
  'environment',
  'url',
  'events',
  'headers',
  'enabled',
  'created_at',
  'updated_at',
] as const;

/**
 * Whether the account exists, when it was archived (an endpoint is created only for a live one) and
 * how many endpoints its side has (at most MAX_WEBHOOK_ENDPOINTS), in one statement.
 */
export async function findEndpointAccount(
  db: Executor,
  scope: Scope,
): Promise<{ id: number; archived_at: Date | null; endpoints: number } | undefined> {
  const row = await db
    .selectFrom('accounts')
    .select((eb) => [
      'id',
      'archived_at',
      eb
        .selectFrom('webhook_endpoints')
        .select(sql<string>`count(*)`.as('n'))
        .where('account_id', '=', scope.accountId)
        .where('environment', '=', scope.environment)
        .as('endpoints'),
    ])
    .where('id', '=', scope.accountId)
    .executeTakeFirst();
  return row && { id: row.id, archived_at: row.archived_at, endpoints: Number(row.endpoints ?? 0) };
}

export async function insertEndpoint(
  db: Executor,
  scope: Scope,
  endpoint: {
    url: string;
    events: string[];
    headers: Record<string, string>;
    sealedSecret: string;
    enabled: boolean;
    createdByUserId: number | null;
    now: Date;
  },
): Promise<WebhookEndpointPublicRow> {
  return db
    .insertInto('webhook_endpoints')
    .values({
      account_id: scope.accountId,
      environment: scope.environment,
      url: endpoint.url,
      events: json(endpoint.events),
      headers: json(endpoint.headers),
      secret: endpoint.sealedSecret,
      enabled: endpoint.enabled,
      created_by_user_id: endpoint.createdByUserId,
      created_at: endpoint.now,
      updated_at: endpoint.now,
    })
    .returning(ENDPOINT_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** An account side's endpoints, newest first. */
export async function listEndpoints(db: Executor, scope: Scope): Promise<WebhookEndpointPublicRow[]> {
  return db
    .selectFrom('webhook_endpoints')
    .select(ENDPOINT_COLUMNS)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .orderBy('id', 'desc')
    .execute();
}

/** These endpoints of an account side (the `webhook.test` event's data), by id. */
export async function findEndpointsByIds(
  db: Executor,
  scope: Scope,
  ids: readonly number[],
): Promise<WebhookEndpointPublicRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('webhook_endpoints')
    .select(ENDPOINT_COLUMNS)
    .where('id', 'in', ids)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .execute();
}

/** The account side an endpoint belongs to (unscoped: the operator command line names endpoints by id). */
export async function findEndpointScope(db: Executor, id: number): Promise<Scope | undefined> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select(['account_id', 'environment'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row && { accountId: row.account_id, environment: row.environment };
}

/** What an endpoint update may change; `now` is its updated_at. */
export interface EndpointChanges {
  url?: string;
  events?: string[];
  headers?: Record<string, string>;
  enabled?: boolean;
  sealedSecret?: string;
  now: Date;
}

/** Changes an endpoint of the scope; undefined when it is not there. */
export async function updateEndpoint(
  db: Executor,
  scope: Scope,
  id: number,
  changes: EndpointChanges,
): Promise<WebhookEndpointPublicRow | undefined> {
  return db
    .updateTable('webhook_endpoints')
    .set({
      ...(changes.url === undefined ? {} : { url: changes.url }),
      ...(changes.events === undefined ? {} : { events: json(changes.events) }),
      ...(changes.headers === undefined ? {} : { headers: json(changes.headers) }),
      ...(changes.enabled === undefined ? {} : { enabled: changes.enabled }),
      ...(changes.sealedSecret === undefined ? {} : { secret: changes.sealedSecret }),
      updated_at: changes.now,
    })
    .where('id', '=', id)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .returning(ENDPOINT_COLUMNS)
    .executeTakeFirst();
}

/**
 * Deletes an endpoint of the scope and, by the foreign keys' `on delete cascade`, its deliveries and
 * their attempts, in one statement; the deleted endpoint, or undefined when it is not in the scope.
 * A claim or outcome holding one of its deliveries this instant is waited for (row locks).
 */
export async function deleteEndpoint(
  db: Executor,
  scope: Scope,
  id: number,
): Promise<WebhookEndpointPublicRow | undefined> {
  return db
    .deleteFrom('webhook_endpoints')
    .where('id', '=', id)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .returning(ENDPOINT_COLUMNS)
    .executeTakeFirst();
}

/** An endpoint's stored (sealed) signing secret; undefined when it is not in the scope. */
export async function findEndpointSealedSecret(
  db: Executor,
  scope: Scope,
  id: number,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select('secret')
    .where('id', '=', id)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .executeTakeFirst();
  return row?.secret;
}

// ------------------------------------------------------------------ events and fan-out

/** An event to record. */
export interface EventInsert {
  id: string;
  type: string;
  objectType: string;
  objectId: number;
  createdAt: Date;
  /** The audit row of the same change, written by the same statement. */
  audit?: NewAuditEvent;
}

/**
 * Writes the event (and the audit row given with it) and, in the same statement, finds the enabled endpoints of its account side
 * subscribed to its type (none for `webhook.test`, which goes to the one endpoint it was sent to),
 * by id.
 */
export async function insertEventFindSubscribers(
  tx: Executor,
  scope: Scope,
  event: EventInsert,
): Promise<number[]> {
  const { audit, ...e } = event;
  const auditColumns = audit
    ? Object.keys(audit).filter((c) => audit[c as keyof NewAuditEvent] !== undefined)
    : [];
  const values: Record<string, unknown> = {
    id: e.id,
    accountId: scope.accountId,
    environment: scope.environment,
    type: e.type,
    objectType: e.objectType,
    objectId: e.objectId,
    createdAt: e.createdAt,
    types: json([e.type]),
  };
  for (const c of auditColumns) values[`audit:${c}`] = audit![c as keyof NewAuditEvent];
  const rows = await eventAndSubscribers(
    tx,
    { auditColumns: audit ? auditColumns : null, test: e.type === 'webhook.test' },
    values,
  );
  return rows.map((r) => r.id);
}

interface EventShape {
  /** The audit row's columns, null without one. */
  auditColumns: string[] | null;
  /** `webhook.test` goes to the one endpoint it was sent to: no subscribers. */
  test: boolean;
}

/**
 * The statement of insertEventFindSubscribers, built and compiled once per shape and run prepared:
 * nearly every change records an event (a send's own statement, issue 31).
 */
const eventAndSubscribers = compiledOnce(
  'esign_event_subscribers',
  (s: EventShape) => `${+s.test}:${s.auditColumns?.join(',') ?? '-'}`,
  (db, v: Record<string, unknown>, s: EventShape) => {
    const recorded = db.with('recorded', (q) =>
      q.insertInto('webhook_events').values({
        id: v.id as string,
        account_id: v.accountId as number,
        environment: v.environment as Scope['environment'],
        type: v.type as string,
        object_type: v.objectType as string,
        object_id: v.objectId as number,
        created_at: v.createdAt as Date,
      }),
    );
    const auditRow = s.auditColumns
      ? (Object.fromEntries(s.auditColumns.map((c) => [c, v[`audit:${c}`]])) as unknown as NewAuditEvent)
      : null;
    // The audit row's CTE adds a name the select does not use: seen as `recorded` alone.
    const writes = auditRow
      ? (recorded.with('audited', (q) =>
          q.insertInto('audit_events').values(auditRow),
        ) as unknown as typeof recorded)
      : recorded;
    return writes
      .selectFrom('webhook_endpoints')
      .select('id')
      .where('account_id', '=', v.accountId as number)
      .where('environment', '=', v.environment as Scope['environment'])
      .where('enabled', '=', true)
      .where(sql<boolean>`events @> ${v.types}::jsonb`)
      .$if(s.test, (qb) => qb.where(sql<boolean>`false`))
      .orderBy('id');
  },
);

/** The bind parameters one delivery row takes in the insert below. */
const DELIVERY_PARAMETERS = 6;

/**
 * Pending deliveries of one event, one per endpoint, due at `at`; their ids in endpoint order. One
 * statement (as many as the parameter limit needs for endpoints an account had before
 * WEBHOOK_MAX_ENDPOINTS bounded them).
 */
export async function insertEventDeliveries(
  tx: Executor,
  delivery: { eventId: string; endpointIds: readonly number[]; at: Date },
): Promise<number[]> {
  const ids = await insertInChunks(delivery.endpointIds, DELIVERY_PARAMETERS, (chunk) =>
    tx
      .insertInto('webhook_deliveries')
      .values(
        chunk.map((endpointId) => ({
          event_id: delivery.eventId,
          endpoint_id: endpointId,
          status: 'pending' as const,
          next_attempt_at: delivery.at,
          created_at: delivery.at,
          updated_at: delivery.at,
        })),
      )
      .returning('id')
      .execute(),
  );
  return ids.map((r) => r.id);
}
