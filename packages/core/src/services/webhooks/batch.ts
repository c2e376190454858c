import type { Executor, JobRow } from '@esign/db';
import {
  type ClaimedDeliveryRow,
  type DeliveryBatchRow,
  type DeliveryOutcomeRow,
  recordAndClaimDeliveries,
} from '@esign/db/queries/webhook-claims';
import { type ClaimedDelivery, deliveryClaimRules, toClaimedDelivery } from './claim.ts';
import { WEBHOOK_DELIVER_JOB } from './options.ts';

// The worker's batched path (issue 16, issue 31; docs/webhooks.md, How deliveries are made): one
// statement records the outcomes of the attempts that finished and claims the next due
// `webhook.deliver` jobs together with the deliveries they wake. Each row keeps the rules of the
// one-at-a-time path (claim.ts, delivery.ts) because it is the same statement: the job claim
// (jobClaimCtes), the delivery claim and the outcome record (webhook-claims.ts) are written once,
// and an attempt made one at a time claims and records through them too.

/** A claimed job, and the delivery it woke when that delivery could be claimed in the same statement. */
export interface BatchItem {
  job: JobRow;
  delivery: ClaimedDelivery | null;
}

/** One attempt's outcome as the batch records it. */
export type OutcomeRow = DeliveryOutcomeRow;

/** The wake-up job of a retry allows as many runs as any job (enqueueJob's default). */
const RETRY_JOB_MAX_ATTEMPTS = 10;

function toItem(row: DeliveryBatchRow, taken: Set<number>): BatchItem {
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
  return { job, delivery: toClaimedDelivery(row as ClaimedDeliveryRow) };
}

export interface BatchTurn {
  workerId: string;
  /** Jobs to claim at most (0: record only). */
  limit: number;
  now: Date;
  leases: { jobMs: number; deliveryMs: number };
}

/**
 * Records `outcomes` and claims up to `turn.limit` due `webhook.deliver` jobs in one statement. A
 * claimed job's delivery comes with it when its next attempt needs no decision in code (pending,
 * due, free, to an enabled endpoint, attempts left, no attempt left unrecorded by a dead worker);
 * a job whose delivery was not claimed comes back with `delivery: null` and is run by the job
 * handler (claimDelivery decides: abandoned attempts, exhausted, disabled, held, done). Returns the
 * ids of the deliveries whose outcome was written (the others were superseded) and the items.
 */
export async function recordAndClaim(
  db: Executor,
  outcomes: readonly OutcomeRow[],
  turn: BatchTurn,
): Promise<{ recorded: Set<number>; items: BatchItem[] }> {
  const { recorded, claimed } = await recordAndClaimDeliveries(
    db,
    outcomes,
    {
      kind: WEBHOOK_DELIVER_JOB,
      workerId: turn.workerId,
      limit: turn.limit,
      jobLeaseUntil: new Date(turn.now.getTime() + turn.leases.jobMs),
      ...deliveryClaimRules(turn.now, turn.leases.deliveryMs),
      retryJobMaxAttempts: RETRY_JOB_MAX_ATTEMPTS,
    },
    turn.now,
  );
  const taken = new Set<number>();
  return { recorded, items: claimed.map((row) => toItem(row, taken)) };
}

/**
 * Records outcomes of attempts made one at a time (a test event sent at once, a "retry now", a job
 * the batch left to the handler): the worker's statement claiming nothing. True for each delivery
 * whose outcome was written (false: superseded).
 */
export async function recordOutcomes(
  db: Executor,
  outcomes: readonly OutcomeRow[],
  { now, leaseMs }: { now: Date; leaseMs: number },
): Promise<Set<number>> {
  const turn = { workerId: '', limit: 0, now, leases: { jobMs: leaseMs, deliveryMs: leaseMs } };
  return (await recordAndClaim(db, outcomes, turn)).recorded;
}

/** Claims up to `limit` due `webhook.deliver` jobs and the deliveries they wake (recordAndClaim without outcomes). */
export async function claimDeliveryBatch(db: Executor, turn: BatchTurn): Promise<BatchItem[]> {
  return (await recordAndClaim(db, [], turn)).items;
}
