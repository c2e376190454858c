import { type Executor, json } from '@esign/db';
import { sql } from 'kysely';
import type { Scope } from '../../context.ts';
import { enqueueJob } from '../jobs.ts';
import { deliverJob } from './options.ts';

/** A just-recorded event, as the fan-out needs it. */
export interface FanOutEvent extends Scope {
  id: string;
  type: string;
  created_at: Date;
}

/**
 * In the transaction of the change: one pending delivery per enabled endpoint of the event's
 * account side that subscribes to its type, and the wake-up job of each. `recordEvent` calls it.
 */
export async function fanOutWebhookEvent(tx: Executor, event: FanOutEvent): Promise<void> {
  // webhook.test goes to the one endpoint it was sent to (sendTestWebhook), whatever it subscribes to.
  if (event.type === 'webhook.test') return;
  const endpoints = await tx
    .selectFrom('webhook_endpoints')
    .select('id')
    .where('account_id', '=', event.accountId)
    .where('environment', '=', event.environment)
    .where('enabled', '=', true)
    .where(sql<boolean>`events @> ${json([event.type])}::jsonb`)
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
  for (const d of deliveries) await enqueueJob(tx, deliverJob(d.id, 1, event.created_at));
}
