import { EXTENSION_EVENT_TYPES } from '@esign/domain';
import {
  assertPublicUrl,
  DEFAULT_SUBSCRIBED_EVENT_TYPES,
  isAllowedCustomHeader,
  OutboundError,
  WEBHOOK_EVENT_TYPES,
} from '@esign/webhooks';
import { CoreError } from '../../errors.ts';
import type { WebhookOptions } from './options.ts';

// What an endpoint may be saved with: its URL, the event types it subscribes to, custom headers.

/**
 * Event types an endpoint can subscribe to: all but `webhook.test`, which is sent on request only,
 * then the extension types (issue 34), which an endpoint gets only when it names them.
 */
export const SUBSCRIBABLE_EVENT_TYPES: readonly string[] = [
  ...WEBHOOK_EVENT_TYPES.filter((t) => t !== 'webhook.test'),
  ...EXTENSION_EVENT_TYPES,
];

const WEBHOOK_URL_MAX_LENGTH = 2048;
const WEBHOOK_MAX_CUSTOM_HEADERS = 20;
const WEBHOOK_CUSTOM_HEADER_MAX_LENGTH = 1024;

/**
 * The save-time URL rules: an absolute http:// or https:// URL without credentials whose host
 * resolves only to public addresses (unless WEBHOOK_ALLOW_PRIVATE). The same guard runs again at
 * every delivery. Returns the URL normalised (fragment dropped).
 */
export async function checkWebhookUrl(
  url: unknown,
  opts: Pick<WebhookOptions, 'config' | 'lookup'>,
): Promise<string> {
  if (url === undefined || url === null || (typeof url === 'string' && url.trim() === '')) {
    throw new CoreError('missing_parameter', 'url is required');
  }
  if (typeof url !== 'string') throw new CoreError('invalid_parameter', 'url must be a string');
  const text = url.trim();
  if (text.length > WEBHOOK_URL_MAX_LENGTH) {
    throw new CoreError('invalid_parameter', `url must be at most ${WEBHOOK_URL_MAX_LENGTH} characters`);
  }
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    throw new CoreError('invalid_parameter', 'url must be an absolute http:// or https:// URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new CoreError('invalid_parameter', `url must use http:// or https://, not ${parsed.protocol}//`);
  }
  parsed.hash = '';
  try {
    await assertPublicUrl(parsed.href, {
      allowPrivate: opts.config.WEBHOOK_ALLOW_PRIVATE,
      ...(opts.lookup ? { lookup: opts.lookup } : {}),
    });
  } catch (err) {
    if (err instanceof OutboundError) throw new CoreError('invalid_parameter', `url: ${err.message}`);
    throw err;
  }
  return parsed.href;
}

/** The chosen event types in the specification's order; the "on by default" ones when omitted. */
export function checkWebhookEvents(events: unknown): string[] {
  if (events === undefined || events === null) return [...DEFAULT_SUBSCRIBED_EVENT_TYPES];
  if (!Array.isArray(events) || events.length === 0) {
    throw new CoreError('invalid_parameter', 'events must be a non-empty list of event types');
  }
  const chosen = new Set<string>();
  for (const type of events) {
    if (type === 'webhook.test') {
      throw new CoreError(
        'invalid_parameter',
        'events: webhook.test cannot be subscribed to; it is sent to an endpoint on request',
      );
    }
    if (typeof type !== 'string' || !SUBSCRIBABLE_EVENT_TYPES.includes(type)) {
      throw new CoreError(
        'invalid_parameter',
        `events: unknown event type ${JSON.stringify(type)}; expected some of ${SUBSCRIBABLE_EVENT_TYPES.join(', ')}`,
      );
    }
    chosen.add(type);
  }
  return SUBSCRIBABLE_EVENT_TYPES.filter((t) => chosen.has(t));
}

/** Custom headers: valid HTTP names and values, none the service sets itself, at most 20. */
export function checkWebhookHeaders(headers: unknown, serviceName: string): Record<string, string> {
  if (headers === undefined || headers === null) return {};
  if (typeof headers !== 'object' || Array.isArray(headers)) {
    throw new CoreError('invalid_parameter', 'headers must be an object of header names to values');
  }
  const entries = Object.entries(headers);
  if (entries.length > WEBHOOK_MAX_CUSTOM_HEADERS) {
    throw new CoreError('invalid_parameter', `headers: at most ${WEBHOOK_MAX_CUSTOM_HEADERS} custom headers`);
  }
  const out: Record<string, string> = {};
  const seen = new Set<string>();
  for (const [name, value] of entries) {
    if (typeof value !== 'string') {
      throw new CoreError(
        'invalid_parameter',
        `headers: the value of ${JSON.stringify(name)} must be a string`,
      );
    }
    if (value.length > WEBHOOK_CUSTOM_HEADER_MAX_LENGTH) {
      throw new CoreError(
        'invalid_parameter',
        `headers: the value of ${JSON.stringify(name)} is longer than ${WEBHOOK_CUSTOM_HEADER_MAX_LENGTH} characters`,
      );
    }
    if (!isAllowedCustomHeader(name, value, serviceName)) {
      throw new CoreError(
        'invalid_parameter',
        `headers: ${JSON.stringify(name)} cannot be sent: not a valid header name or value, or a header the service sets itself`,
      );
    }
    const lower = name.toLowerCase();
    if (seen.has(lower))
      throw new CoreError('invalid_parameter', `headers: ${JSON.stringify(name)} is given twice`);
    seen.add(lower);
    out[name] = value;
  }
  return out;
}
