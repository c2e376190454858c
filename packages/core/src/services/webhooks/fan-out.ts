import { type Executor, json } from '@esign/db';
import { sql } from 'kysely';
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
}

/**
 * In the transaction of the change: records the event, and queues one pending delivery per
 * enabled endpoint of the event's account side that subscribes to its type, with the wake-up job
 * of each. The event is written by the statement that finds its endpoints (one round trip for an
 * account without endpoints; two more with any). `recordEvent` calls it.
 */
export async function recordAndFanOut(tx: Executor, event: FanOutEvent): Promise<void> {
  const endpoints = await tx
    .with('recorded', (db) =>
      db.insertInto('webhook_events').values({
        id: event.id,
        account_id: event.accountId,
        environment: event.environment,
        type: event.type,
        object_type: event.objectType,
        object_id: event.objectId,
        created_at: event.created_at,
      }),
    )
    .selectFrom('webhook_endpoints')
    .select('id')
    .where('account_id', '=', event.accountId)
    .where('environment', '=', event.environment)
    .where('enabled', '=', true)
    .where(sql<boolean>`events @> ${json([event.type])}::jsonb`)
    // webhook.test goes to the one endpoint it was sent to (sendTestWebhook), whatever it subscribes to.
    .$if(event.type === 'webhook.test', (qb) => qb.where(sql<boolean>`false`))
    .orderBy('id')
    .execute();
  if (endpoints.length === 0) return;
  const deliveries = await tx
    .insertInto('webhook_deliveries')
    .values(
      endpoints.map((e) => ({
        event_id: event.id,
        endpoint_id: e.id,
        status: 'pending' as const,
        next_attempt_at: event.created_at,
        created_at: event.created_at,
        updated_at: event.created_at,
      })),
    )
    .returning('id')
    .execute();
  await enqueueJobs(
    tx,
    deliveries.map((d) => deliverJob(d.id, 1, event.created_at)),
  );
}
