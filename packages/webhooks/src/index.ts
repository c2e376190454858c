export { type AddressClass, classifyAddress, isPublicAddress, parseHostToIp } from './address.ts';
export {
  type DeliverWebhookInput,
  type DeliveryAttemptResult,
  deliverWebhook,
  RESPONSE_EXCERPT_CHARS,
  WEBHOOK_TIMEOUT_MS,
} from './deliver.ts';
export {
  type BuildDeliveryRequestInput,
  buildDeliveryRequest,
  DEFAULT_SERVICE_NAME,
  DEFAULT_SUBSCRIBED_EVENT_TYPES,
  defaultUserAgent,
  isAllowedCustomHeader,
  WEBHOOK_EVENT_TYPES,
  type WebhookEnvelope,
  type WebhookEventType,
  type WebhookHeaderNames,
  webhookHeaderNames,
} from './delivery-request.ts';
export {
  type BlockedReason,
  OutboundBlockedError,
  OutboundError,
  type OutboundErrorCode,
  OutboundHttpError,
  type OutboundHttpErrorCode,
  OutboundTimeoutError,
  OutboundTooLargeError,
} from './errors.ts';
export {
  closeOutboundConnections,
  type GuardedFetchOptions,
  type GuardedFetchResult,
  guardedFetch,
} from './outbound.ts';
export {
  assertPublicUrl,
  type CheckedUrl,
  cachingResolver,
  DNS_CACHE_MS,
  type OutboundPolicy,
  type OutboundProtocol,
  type ResolveHost,
} from './outbound-policy.ts';
export {
  DEFAULT_RETRY_BASE_SECONDS,
  MAX_ATTEMPTS,
  NEVER_RETRIED_EVENT_TYPES,
  nextRetryDelayForEvent,
  nextRetryDelaySeconds,
  retrySchedule,
} from './retry.ts';
export {
  generateWebhookSecret,
  type ParsedSignatureHeader,
  parseSignatureHeader,
  SIGNATURE_TOLERANCE_SECONDS,
  signWebhook,
  verifyWebhook,
  WEBHOOK_SECRET_PREFIX,
} from './signature.ts';
