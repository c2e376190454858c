import { randomUUID } from 'node:crypto';
import type { Db, Environment, Tx } from '@esign/db';
import { nextRetryDelayForEvent } from '@esign/webhooks';
import type { Scope } from '../../context.ts';
import { type WebhookOptions, webhookLeaseMs } from './options.ts';

// Taking a delivery for one attempt. A worker takes a lease on the row (locked_by = the attempt's
// delivery UUID) before it sends, so however many workers and duplicate wake-ups there are, one
// attempt of a delivery is in flight at a time, and an attempt whose worker died is retried with
// the same event once the lease has run out.

const ABANDONED_ERROR = 'The worker stopped before the outcome of this attempt was recorded';

export interface ClaimedDelivery {
  id: number;
  attempt: number;
  deliveryUuid: string;
  eventId: string;
  type: string;
  eventCreatedAt: Date;
  objectType: string;
  objectId: number;
  scope: Scope;
  url: string;
  headers: Record<string, string>;
  secret: string;
}

export type Claim =
  | { kind: 'attempt'; delivery: ClaimedDelivery }
  | { kind: 'leased'; until: Date }
  | { kind: 'skip' };

/** The delivery, its event and its endpoint, as both claims read them. */
interface DeliveryJoinRow {
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

/** The columns of DeliveryJoinRow, as both claims read them (d: delivery, e: event, w: endpoint). */
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

function claimed(row: DeliveryJoinRow, attempt: number, deliveryUuid: string): Claim {
  return {
    kind: 'attempt',
    delivery: {
      id: row.id,
      attempt,
      deliveryUuid,
      eventId: row.event_id,
      type: row.type,
      eventCreatedAt: row.event_created_at,
      objectType: row.object_type,
      objectId: row.object_id,
      scope: { accountId: row.account_id, environment: row.environment },
      url: row.url,
      headers: row.headers,
      secret: row.secret,
    },
  };
}

/**
 * The common case in one statement: the first attempt of a due, free delivery to an enabled endpoint
 * (or a webhook.test). Two workers racing here serialise on the row; the loser's condition no longer
 * holds (`attempts = 0`) and it gets nothing.
 */
async function claimFirstAttempt(db: Db, deliveryId: number, opts: WebhookOptions): Promise<Claim | null> {
  const now = opts.now();
  const deliveryUuid = randomUUID();
  const row = await db
    .with('claimed', (qb) =>
      qb
        .updateTable('webhook_deliveries as d')
        .from(['webhook_events as e', 'webhook_endpoints as w'])
        .set({
          attempts: 1,
          locked_by: deliveryUuid,
          locked_until: new Date(now.getTime() + webhookLeaseMs(opts.config)),
          updated_at: now,
        })
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
  return row ? claimed(row, 1, deliveryUuid) : null;
}

function lockDelivery(tx: Tx, deliveryId: number) {
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

/** Ends a delivery that gets no further attempt: its endpoint was disabled, or its attempts ran out. */
async function failDelivery(tx: Tx, id: number, reason: 'disabled' | 'exhausted', now: Date) {
  await tx
    .updateTable('webhook_deliveries')
    .set({
      status: 'failed',
      ...(reason === 'disabled'
        ? { last_error: 'The endpoint was disabled before this event was delivered' }
        : { last_status_code: null, last_error: ABANDONED_ERROR }),
      next_attempt_at: null,
      locked_by: null,
      locked_until: null,
      completed_at: now,
      updated_at: now,
    })
    .where('id', '=', id)
    .execute();
}

/** A retry, or the first attempt after an abandoned one, under the row's lock. */
async function claimLaterAttempt(
  tx: Tx,
  deliveryId: number,
  opts: WebhookOptions,
  manual: boolean,
): Promise<Claim> {
  const now = opts.now();
  const row = await lockDelivery(tx, deliveryId);
  // Missing, finished, or locked this instant by another worker's claim or outcome: theirs.
  if (row?.status !== 'pending') return { kind: 'skip' };
  if (row.locked_until && row.locked_until > now) return { kind: 'leased', until: row.locked_until };
  // Not due: the wake-up for its next attempt was queued together with next_attempt_at.
  if (row.next_attempt_at && row.next_attempt_at > now) return { kind: 'skip' };

  if (row.attempts > 0) {
    // An attempt whose worker stopped (killed, lost its database) before recording the outcome.
    await tx
      .updateTable('webhook_attempts')
      .set({ error: ABANDONED_ERROR, error_code: 'abandoned' })
      .where('delivery_id', '=', row.id)
      .where('duration_ms', 'is', null)
      .where('error', 'is', null)
      .execute();
  }

  // A manual "retry now" (dashboard) is one more attempt even after the back-off ran out.
  const exhausted =
    !manual &&
    row.attempts > 0 &&
    nextRetryDelayForEvent(row.type, row.attempts, opts.config.WEBHOOK_RETRY_BASE_SECONDS) === null;
  const disabled = !row.enabled && row.type !== 'webhook.test';
  if (exhausted || disabled) {
    await failDelivery(tx, row.id, disabled ? 'disabled' : 'exhausted', now);
    return { kind: 'skip' };
  }

  const attempt = row.attempts + 1;
  const deliveryUuid = randomUUID();
  await tx
    .updateTable('webhook_deliveries')
    .set({
      attempts: attempt,
      locked_by: deliveryUuid,
      locked_until: new Date(now.getTime() + webhookLeaseMs(opts.config)),
      updated_at: now,
    })
    .where('id', '=', row.id)
    .execute();
  // Written before the request goes out, so an attempt whose worker dies stays on record.
  await tx
    .insertInto('webhook_attempts')
    .values({ delivery_id: row.id, attempt, delivery_uuid: deliveryUuid, started_at: now })
    .execute();
  return claimed(row, attempt, deliveryUuid);
}

/** Takes the delivery for one attempt if it is pending, due, and not held by another attempt. */
export async function claimDelivery(
  db: Db,
  deliveryId: number,
  opts: WebhookOptions,
  manual = false,
): Promise<Claim> {
  const first = await claimFirstAttempt(db, deliveryId, opts);
  if (first) return first;
  return db.transaction().execute((tx) => claimLaterAttempt(tx, deliveryId, opts, manual));
}
