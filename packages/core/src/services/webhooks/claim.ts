import { randomUUID } from 'node:crypto';
import type { Db, Tx } from '@esign/db';
import {
  claimFirstDeliveryAttempt,
  type DeliveryJoinRow,
  lockDeliveryForAttempt,
  markDeliveryFailed,
  markUnfinishedAttempts,
  startDeliveryAttempt,
} from '@esign/db/queries/webhooks';
import { nextRetryDelayForEvent } from '@esign/webhooks';
import type { Scope } from '../../context.ts';
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

/**
 * The common case in one statement: the first attempt of a due, free delivery to an enabled endpoint
 * (or a webhook.test). Two workers racing here serialise on the row; the loser's condition no longer
 * holds (`attempts = 0`) and it gets nothing.
 */
async function claimFirstAttempt(db: Db, deliveryId: number, opts: WebhookOptions): Promise<Claim | null> {
  const now = opts.now();
  const deliveryUuid = randomUUID();
  const row = await claimFirstDeliveryAttempt(db, {
    deliveryId,
    deliveryUuid,
    now,
    leaseUntil: new Date(now.getTime() + webhookLeaseMs(opts.config)),
  });
  return row ? claimed(row, 1, deliveryUuid) : null;
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

/** Takes the delivery for one attempt if it is pending, due, and not held by another attempt. */
export async function claimDelivery(
  db: Db,
  deliveryId: number,
  { manual = false, ...opts }: WebhookOptions & { manual?: boolean },
): Promise<Claim> {
  const first = await claimFirstAttempt(db, deliveryId, opts);
  if (first) return first;
  return db.transaction().execute((tx) => claimLaterAttempt(tx, deliveryId, opts, manual));
}
