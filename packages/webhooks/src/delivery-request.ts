import { EVENT_TYPES, type EventType } from '@esign/domain';
import { signWebhook } from './signature.ts';

/** Event types of the spec's Events table, in its order; @esign/domain owns the list. */
export const WEBHOOK_EVENT_TYPES = EVENT_TYPES;
export type WebhookEventType = EventType;

/** Subscribed on a new endpoint unless the user chooses otherwise (spec: "on by default"). */
export const DEFAULT_SUBSCRIBED_EVENT_TYPES: readonly WebhookEventType[] = [
  'signature_request.completed',
  'signer.signed',
];

/** Default operator name in header names: `X-Esign-Event`, `X-Esign-Delivery`, `X-Esign-Signature`. */
export const DEFAULT_SERVICE_NAME = 'Esign';

/** The fixed agent string of the webhook sender for a service name. */
export function defaultUserAgent(serviceName: string = DEFAULT_SERVICE_NAME): string {
  return `${serviceName}-Webhooks/1.0`;
}

/** The JSON body sent for every event (spec, Events, Delivery). Key order is fixed. */
export interface WebhookEnvelope {
  id: string;
  type: string;
  created_at: string;
  data: unknown;
}

export interface WebhookHeaderNames {
  event: string;
  delivery: string;
  signature: string;
}

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const SERVICE_NAME = /^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$/;

/** Header names for a service name: `X-<Name>-Event`, `X-<Name>-Delivery`, `X-<Name>-Signature`. */
export function webhookHeaderNames(serviceName: string = DEFAULT_SERVICE_NAME): WebhookHeaderNames {
  if (!SERVICE_NAME.test(serviceName)) {
    throw new TypeError(
      `serviceName must be letters, digits and inner hyphens, got ${JSON.stringify(serviceName)}`,
    );
  }
  return {
    event: `X-${serviceName}-Event`,
    delivery: `X-${serviceName}-Delivery`,
    signature: `X-${serviceName}-Signature`,
  };
}

// Custom headers may not replace these: they carry the framing, the identity of the sender and the
// signature, or are connection-level headers an endpoint configuration has no business setting.
const RESERVED_HEADERS = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'user-agent',
  'host',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-authorization',
  'proxy-connection',
]);

/** True when a custom header name/value may be sent: a valid token name, no CR/LF/NUL, not reserved. */
export function isAllowedCustomHeader(
  name: string,
  value: string,
  serviceName = DEFAULT_SERVICE_NAME,
): boolean {
  const lower = name.toLowerCase();
  if (!TOKEN.test(name) || /[\r\n\0]/.test(value)) return false;
  if (RESERVED_HEADERS.has(lower)) return false;
  return !Object.values(webhookHeaderNames(serviceName)).some((h) => h.toLowerCase() === lower);
}

export interface BuildDeliveryRequestInput {
  /** Operator name used in the header names; default `Esign`. */
  serviceName?: string;
  /** The endpoint's signing secret. */
  secret: string;
  event: WebhookEnvelope;
  /**
   * `JSON.stringify(event.data)` when the caller has it already (one object sent to many endpoints
   * or in many events is serialised once); the body is the same bytes either way.
   */
  dataJson?: string;
  /** Unique ID of this delivery attempt (a new one for every retry). */
  deliveryId: string;
  /** Configured on the endpoint; invalid or reserved ones are left out (see isAllowedCustomHeader). */
  customHeaders?: Record<string, string>;
  /** Signature timestamp: the time of this attempt, in Unix seconds. */
  nowSeconds: number;
  /** Default `<serviceName>-Webhooks/1.0`. */
  userAgent?: string;
}

/**
 * Builds the exact body and headers of one delivery attempt (spec, Events, Delivery): the JSON
 * envelope `{id, type, created_at, data}`, `Content-Type`, the event, delivery and signature
 * headers, `User-Agent` and the endpoint's custom headers. The body is signed as serialized here, so
 * send it byte for byte.
 */
export function buildDeliveryRequest(input: BuildDeliveryRequestInput): {
  body: string;
  headers: Record<string, string>;
} {
  const serviceName = input.serviceName ?? DEFAULT_SERVICE_NAME;
  const names = webhookHeaderNames(serviceName);
  const { id, type, created_at, data } = input.event;
  // Byte for byte what JSON.stringify({ id, type, created_at, data }) gives, with `data` as given.
  const body =
    input.dataJson === undefined
      ? JSON.stringify({ id, type, created_at, data: data === undefined ? null : data })
      : `{"id":${JSON.stringify(id)},"type":${JSON.stringify(type)},"created_at":${JSON.stringify(created_at)},"data":${input.dataJson}}`;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.customHeaders ?? {})) {
    if (isAllowedCustomHeader(name, value, serviceName)) headers[name] = value;
  }
  headers['Content-Type'] = 'application/json';
  headers['User-Agent'] = input.userAgent ?? defaultUserAgent(serviceName);
  headers[names.event] = type;
  headers[names.delivery] = input.deliveryId;
  headers[names.signature] = signWebhook(input.secret, body, input.nowSeconds);
  return { body, headers };
}
