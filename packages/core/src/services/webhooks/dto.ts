import type { Environment } from '@esign/db';
import type { WebhookEndpointPublicRow } from '@esign/db/queries/webhook-endpoints';
import type { ListPage } from '../list-page.ts';

// The response objects of webhook endpoints and delivery records, and their one mapper each.

export interface WebhookEndpointDto {
  object: 'webhook_endpoint';
  id: number;
  url: string;
  environment: Environment;
  events: string[];
  headers: Record<string, string>;
  enabled: boolean;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptDto {
  /** 1 for the first attempt. */
  attempt: number;
  /** The `X-<Name>-Delivery` header of this attempt. */
  id: string;
  started_at: string;
  /** Null while the attempt is in flight, or when its worker stopped before recording the outcome. */
  duration_ms: number | null;
  status_code: number | null;
  error: string | null;
  error_code: string | null;
  response_excerpt: string | null;
}

export interface WebhookDeliveryDto {
  object: 'webhook_delivery';
  id: number;
  endpoint_id: number;
  event: { id: string; type: string; created_at: string };
  status: 'pending' | 'succeeded' | 'failed';
  attempt_count: number;
  next_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  completed_at: string | null;
  attempts: WebhookAttemptDto[];
}

export type WebhookDeliveryList = ListPage<WebhookDeliveryDto>;

/** An endpoint's columns without its signing secret. */
export type EndpointRow = WebhookEndpointPublicRow;

export function toWebhookEndpointDto(row: EndpointRow): WebhookEndpointDto {
  return {
    object: 'webhook_endpoint',
    id: row.id,
    url: row.url,
    environment: row.environment,
    events: [...row.events],
    headers: { ...row.headers },
    enabled: row.enabled,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** `data` of `webhook.test`: the endpoint, without its secret or custom headers. */
export interface WebhookTestData {
  object: 'webhook_endpoint';
  id: number;
  url: string;
  environment: Environment;
  events: string[];
  enabled: boolean;
  created_at: string;
}

/** The endpoint as a `webhook.test` event carries it. */
export function toWebhookTestData(row: EndpointRow): WebhookTestData {
  return {
    object: 'webhook_endpoint',
    id: row.id,
    url: row.url,
    environment: row.environment,
    events: [...row.events],
    enabled: row.enabled,
    created_at: row.created_at.toISOString(),
  };
}
