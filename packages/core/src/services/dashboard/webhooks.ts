import type { Db, Executor } from '@esign/db';
import { generateWebhookSecret } from '@esign/webhooks';
import type { Scope } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { enqueueJob } from '../jobs.ts';
import {
  attemptWebhookDelivery,
  getWebhookDelivery,
  openEndpointSecret,
  sealEndpointSecret,
  WEBHOOK_DELIVER_JOB,
  type WebhookDeliveryDto,
  type WebhookOptions,
  webhookLeaseMs,
} from '../webhooks/index.ts';

async function storedSecret(db: Executor, scope: Scope, id: number): Promise<string> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select('secret')
    .where('id', '=', id)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .executeTakeFirst();
  if (!row) throw notFound('Webhook endpoint', id);
  return row.secret;
}

/** The endpoint's signing secret, for an admin who needs to configure the receiver again. */
export async function revealWebhookSecret(
  db: Executor,
  scope: Scope,
  id: number,
  opts: Pick<WebhookOptions, 'config'>,
): Promise<{ secret: string }> {
  return { secret: openEndpointSecret(opts.config, scope, await storedSecret(db, scope, id)) };
}

/** A new signing secret; deliveries from now on are signed with it (the old one stops working). */
export async function rotateWebhookSecret(
  db: Executor,
  scope: Scope,
  id: number,
  opts: Pick<WebhookOptions, 'config' | 'now'>,
): Promise<{ secret: string }> {
  await storedSecret(db, scope, id);
  const secret = generateWebhookSecret();
  await db
    .updateTable('webhook_endpoints')
    .set({ secret: sealEndpointSecret(opts.config, scope, secret), updated_at: opts.now() })
    .where('id', '=', id)
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .execute();
  return { secret };
}

/**
 * "Retry now": a delivery waiting for its next attempt is attempted at once; a finished one (failed,
 * or succeeded and wanted again) gets one more attempt of the same event, whatever the back-off
 * said. Returns the delivery with its new attempt.
 */
export async function retryWebhookDelivery(
  db: Db,
  scope: Scope,
  id: number,
  opts: WebhookOptions,
): Promise<WebhookDeliveryDto> {
  await getWebhookDelivery(db, scope, id);
  const now = opts.now();
  await db.transaction().execute(async (tx) => {
    await tx
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', next_attempt_at: now, completed_at: null, updated_at: now })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
      .execute();
    // If this process stops before the attempt, a worker makes it once the lease would have ended.
    await enqueueJob(tx, {
      kind: WEBHOOK_DELIVER_JOB,
      payload: { deliveryId: id },
      runAt: new Date(now.getTime() + webhookLeaseMs(opts.config) + 1000),
    });
  });
  await attemptWebhookDelivery(db, id, opts, { manual: true });
  return getWebhookDelivery(db, scope, id);
}
