import type { Executor, Tx } from '../connection.ts';
import type { Environment } from '../schema.ts';
import type { WebhookAttemptRow } from '../schema-webhooks.ts';
import type { Scope } from '../scope.ts';

// Webhook deliveries one at a time (the decisions the claim statement leaves to code: abandoned
// attempts, exhausted, disabled, held; webhook-claims.ts claims the rest), new deliveries, "retry
// now", and the records the API and the dashboard list.

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
