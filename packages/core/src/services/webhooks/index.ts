// Webhooks (spec: Events; docs/webhooks.md). The outbox is `webhook_deliveries`: one row per event
// and endpoint, written by the fan-out in the transaction of the change that caused the event
// (fan-out.ts, called by recordEvent). Jobs of kind `webhook.deliver` only wake a worker up; the
// delivery row decides (claim.ts, delivery.ts).

export {
  attemptWebhookDelivery,
  sendTestWebhook,
  webhookDeliverJob,
} from './delivery.ts';
export type { WebhookDeliveryDto } from './dto.ts';
export {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
  updateWebhookEndpoint,
} from './endpoints.ts';

export { WEBHOOK_DELIVER_JOB, type WebhookOptions, webhookLeaseMs } from './options.ts';

export { getWebhookDelivery, listWebhookDeliveries } from './records.ts';
export { openEndpointSecret, sealEndpointSecret } from './secret-box.ts';
export { SUBSCRIBABLE_EVENT_TYPES } from './url-rules.ts';
