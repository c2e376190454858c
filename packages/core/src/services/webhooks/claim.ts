import { randomUUID } from 'node:crypto';
import type { Executor, Tx } from '@esign/db';
import { type ClaimedDeliveryRow, claimDeliveryById } from '@esign/db/queries/webhook-claims';
import {
  type DeliveryJoinRow,
  lockDeliveryForAttempt,
  markDeliveryFailed,
  markUnfinishedAttempts,
  startDeliveryAttempt,
} from '@esign/db/queries/webhook-deliveries';
import { MAX_ATTEMPTS, NEVER_RETRIED_EVENT_TYPES, nextRetryDelayForEvent } from '@esign/webhooks';
import type { Scope } from '../../context.ts';
import type { ServiceContext } from '../service-context.ts';
import { type WebhookOptions, webhookLeaseMs } from './options.ts';

// Taking a delivery for one attempt. A worker takes a lease on the row (locked_by = the attempt's
// delivery UUID) before it sends, so however many workers and duplicate wake-ups there are, one
// attempt of a delivery is in flight at a time, and an attempt whose worker died is retried with
// the same event once the lease has run out.

const ABANDONED_ERROR = 'The worker stopped before the outcome of this attempt was recorded';
const DISABLED_ERROR = 'The endpoint was disabled before this event was delivered';

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

const NEVER_RETRIED = [...NEVER_RETRIED_EVENT_TYPES];

/** A delivery as claimDeliveryById and the worker's batch statement return it. */
export function toClaimedDelivery(row: ClaimedDeliveryRow): ClaimedDelivery {
  return {
    id: row.d_id,
    attempt: row.d_attempt,
    deliveryUuid: row.d_uuid,
    eventId: row.event_id,
    type: row.type,
    eventCreatedAt: row.event_created_at,
    objectType: row.object_type,
    objectId: row.object_id,
    scope: { accountId: row.account_id, environment: row.environment },
    url: row.url,
    headers: row.headers,
    secret: row.secret,
  };
}

/** What the delivery claim statement takes besides the ids (the same for the batch and for one). */
export function deliveryClaimRules(now: Date, leaseMs: number) {
  return {
    now,
    deliveryLeaseUntil: new Date(now.getTime() + leaseMs),
    maxAttempts: MAX_ATTEMPTS,
    neverRetried: NEVER_RETRIED,
  };
}

/**
 * The common case in one statement, the delivery claim the worker's batch makes (webhook-claims.ts):
 * the next attempt of a delivery that needs no decision in code. Two workers racing here serialise
 * on the row; the loser's conditions no longer hold and it gets nothing.
 */
async function claimWithoutDecision(
  db: Executor,
  deliveryId: number,
  opts: WebhookOptions,
): Promise<Claim | null> {
  const row = await claimDeliveryById(
    db,
    deliveryId,
    deliveryClaimRules(opts.now(), webhookLeaseMs(opts.config)),
  );
  return row ? { kind: 'attempt', delivery: toClaimedDelivery(row) } : null;
}

/** A retry, or the first attempt after an abandoned one, under the row's lock. */
async function claimLaterAttempt(
  tx: Tx,
  deliveryId: number,
  opts: WebhookOptions,
  manual: boolean,
): Promise<Claim> {
  const now = opts.now();
  const row = await lockDeliveryForAttempt(tx, deliveryId);
  // Missing, finished, or locked this instant by another worker's claim or outcome: theirs.
  if (row?.status !== 'pending') return { kind: 'skip' };
  if (row.locked_until && row.locked_until > now) return { kind: 'leased', until: row.locked_until };
  // Not due: the wake-up for its next attempt was queued together with next_attempt_at.
  if (row.next_attempt_at && row.next_attempt_at > now) return { kind: 'skip' };

  if (row.attempts > 0) {
    // An attempt whose worker stopped (killed, lost its database) before recording the outcome.
    await markUnfinishedAttempts(tx, row.id, { error: ABANDONED_ERROR, errorCode: 'abandoned' });
  }

  // A manual "retry now" (dashboard) is one more attempt even after the back-off ran out.
  const exhausted =
    !manual &&
    row.attempts > 0 &&
    nextRetryDelayForEvent(row.type, row.attempts, opts.config.WEBHOOK_RETRY_BASE_SECONDS) === null;
  const disabled = !row.enabled && row.type !== 'webhook.test';
  if (exhausted || disabled) {
    // Disabled: the last attempt's status code stays; exhausted: the abandoned attempt had none.
    await markDeliveryFailed(tx, row.id, {
      lastError: disabled ? DISABLED_ERROR : ABANDONED_ERROR,
      clearStatusCode: !disabled,
      now,
    });
    return { kind: 'skip' };
  }

  const attempt = row.attempts + 1;
  const deliveryUuid = randomUUID();
  // The attempt row is written before the request goes out, so an attempt whose worker dies stays on record.
  await startDeliveryAttempt(tx, {
    deliveryId: row.id,
    attempt,
    deliveryUuid,
    leaseUntil: new Date(now.getTime() + webhookLeaseMs(opts.config)),
    now,
  });
  return claimed(row, attempt, deliveryUuid);
}

/**
 * Takes the delivery for one attempt if it is pending, due, and not held by another attempt: the
 * common case by the claim statement, the rest (an attempt left unrecorded, exhausted, disabled,
 * held, a manual retry after the back-off ran out) decided here under the row's lock.
 */
export async function claimDelivery(
  { db }: Pick<ServiceContext, 'db'>,
  deliveryId: number,
  { manual = false, ...opts }: WebhookOptions & { manual?: boolean },
): Promise<Claim> {
  const first = await claimWithoutDecision(db, deliveryId, opts);
  if (first) return first;
  return db.transaction().execute((tx) => claimLaterAttempt(tx, deliveryId, opts, manual));
}
