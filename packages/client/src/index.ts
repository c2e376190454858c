export { createEsignClient, type EsignClient, type EsignClientOptions } from './client.ts';
export { type ErrorCode, EsignApiError } from './errors.ts';
export type { components, operations, paths, webhooks } from './openapi.ts';
export { type ListItem, type ListPath, type ListQuery, paginate } from './paginate.ts';
export type { RetryOptions } from './retrying-fetch.ts';
export {
  DEFAULT_TOLERANCE_SECONDS,
  parseWebhook,
  SIGNATURE_HEADER,
  type VerifyOptions,
  verifyWebhookSignature,
  type WebhookEvent,
  type WebhookEventType,
  type WebhookRefusal,
  WebhookVerificationError,
} from './webhooks.ts';
