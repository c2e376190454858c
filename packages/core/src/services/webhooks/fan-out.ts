import type { Tx } from '@esign/db';
import type { NewAuditEvent } from '@esign/db/queries/audit';
import { insertEventDeliveries, insertEventFindSubscribers } from '@esign/db/queries/webhook-events';
import type { Scope } from '../../context.ts';
import { enqueueJobs } from '../jobs.ts';
import { deliverJob } from './options.ts';

/** An event to record, and fan out. */
export interface FanOutEvent extends Scope {
  id: string;
  type: string;
  objectType: string;
  objectId: number;
  created_at: Date;
  /** An audit row the same statement writes. */
  audit?: NewAuditEvent;
}

/**
 * In the transaction of the change: records the event, and queues one pending delivery per
 * enabled endpoint of the event's account side that subscribes to its type, with the wake-up job
 * of each. The event is written by the statement that finds its endpoints (one round trip for an
 * account without endpoints; two more with any). `recordEvent` calls it.
 */
export async function recordAndFanOut(tx: Tx, event: FanOutEvent): Promise<void> {
  const scope = { accountId: event.accountId, environment: event.environment };
  const endpointIds = await insertEventFindSubscribers(tx, scope, {
    id: event.id,
    type: event.type,
    objectType: event.objectType,
    objectId: event.objectId,
    createdAt: event.created_at,
    ...(event.audit ? { audit: event.audit } : {}),
  });
  if (endpointIds.length === 0) return;
  const deliveries = await insertEventDeliveries(tx, {
    eventId: event.id,
    endpointIds,
    at: event.created_at,
  });
  await enqueueJobs(
    tx,
    deliveries.map((id) => deliverJob(id, 1, event.created_at)),
  );
}
