import type { Executor } from '@esign/db';
import { reopenDelivery } from '@esign/db/queries/webhook-deliveries';
import { findEndpointSealedSecret, updateEndpoint } from '@esign/db/queries/webhook-endpoints';
import { generateWebhookSecret } from '@esign/webhooks';
import type { Scope } from '../../context.ts';
import { notFound } from '../../errors.ts';
import { enqueueJob } from '../jobs.ts';
import type { ServiceContext } from '../service-context.ts';
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
  const secret = await findEndpointSealedSecret(db, scope, id);
  if (secret === undefined) throw notFound('Webhook endpoint', id);
  return secret;
}

/** The endpoint's signing secret, for an admin who needs to configure the receiver again. */
export async function revealWebhookSecret(
  db: Executor,
  scope: Scope,
  { id, config }: Pick<WebhookOptions, 'config'> & { id: number },
): Promise<{ secret: string }> {
  return { secret: openEndpointSecret(config, scope, await storedSecret(db, scope, id)) };
}

/** A new signing secret; deliveries from now on are signed with it (the old one stops working). */
export async function rotateWebhookSecret(
  db: Executor,
  scope: Scope,
  { id, ...opts }: Pick<WebhookOptions, 'config' | 'now'> & { id: number },
): Promise<{ secret: string }> {
  await storedSecret(db, scope, id);
  const secret = generateWebhookSecret();
  await updateEndpoint(db, scope, id, {
    sealedSecret: sealEndpointSecret(opts.config, scope, secret),
    now: opts.now(),
  });
  return { secret };
}

/**
 * "Retry now": a delivery waiting for its next attempt is attempted at once; a finished one (failed,
 * or succeeded and wanted again) gets one more attempt of the same event, whatever the back-off
 * said. Returns the delivery with its new attempt.
 */
export async function retryWebhookDelivery(
  { db }: Pick<ServiceContext, 'db'>,
  scope: Scope,
  { id, ...opts }: WebhookOptions & { id: number },
): Promise<WebhookDeliveryDto> {
  await getWebhookDelivery(db, scope, id);
  const now = opts.now();
  await db.transaction().execute(async (tx) => {
    await reopenDelivery(tx, id, now);
    // If this process stops before the attempt, a worker makes it once the lease would have ended.
    await enqueueJob(tx, {
      kind: WEBHOOK_DELIVER_JOB,
      payload: { deliveryId: id },
      runAt: new Date(now.getTime() + webhookLeaseMs(opts.config) + 1000),
    });
  });
  await attemptWebhookDelivery({ db }, id, { ...opts, manual: true });
  return getWebhookDelivery(db, scope, id);
}
