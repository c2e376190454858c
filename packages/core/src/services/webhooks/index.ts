// Webhooks (spec: Events; docs/webhooks.md). The outbox is `webhook_deliveries`: one row per event
// and endpoint, written by the fan-out in the transaction of the change that caused the event
// (fan-out.ts, called by recordEvent). Jobs of kind `webhook.deliver` only wake a worker up; the
// delivery row decides (claim.ts, delivery.ts).

export {
  attemptWebhookDelivery,
  createWebhookDeliverJob,
  sendTestWebhook,
  type WebhookAttemptOutcome,
  webhookDeliverJob,
} from './delivery.ts';
export {
  toWebhookEndpointDto,
  type WebhookAttemptDto,
  type WebhookDeliveryDto,
  type WebhookDeliveryList,
  type WebhookEndpointDto,
  type WebhookTestData,
} from './dto.ts';
export {
  type CreateWebhookEndpointInput,
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  disableWebhookEndpoint,
  getWebhookEndpoint,
  listWebhookEndpoints,
  type UpdateWebhookEndpointInput,
  updateWebhookEndpoint,
  WEBHOOK_MAX_ENDPOINTS,
  webhookEndpointScope,
} from './endpoints.ts';
export { recordAndFanOut } from './fan-out.ts';
export { WEBHOOK_DELIVER_JOB, type WebhookOptions, webhookLeaseMs } from './options.ts';
export { startWebhookWorker, type WebhookWorkerOptions } from './pump.ts';
export { getWebhookDelivery, type ListWebhookDeliveriesInput, listWebhookDeliveries } from './records.ts';
export { openEndpointSecret, sealEndpointSecret } from './secret-box.ts';
export {
  checkWebhookEvents,
  checkWebhookHeaders,
  checkWebhookUrl,
  SUBSCRIBABLE_EVENT_TYPES,
  WEBHOOK_CUSTOM_HEADER_MAX_LENGTH,
  WEBHOOK_MAX_CUSTOM_HEADERS,
  WEBHOOK_URL_MAX_LENGTH,
} from './url-rules.ts';
