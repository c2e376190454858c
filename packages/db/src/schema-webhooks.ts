import type { Generated, Selectable } from 'kysely';
import type {
  CreatedAt,
  Environment,
  Json,
  JsonDefault,
  NullableTimestamp,
  Timestamp,
  UpdatedAt,
} from './schema-columns.ts';

// The webhook tables (packages/webhooks, core services/webhooks, queries/webhook-*.ts): endpoints,
// the events they are sent, one delivery per event and endpoint, and each delivery's attempts.

export interface WebhookEndpointsTable {
  id: Generated<number>;
  account_id: number;
  environment: Environment;
  url: string;
  events: Json<string[]>;
  headers: JsonDefault<Record<string, string>>;
  secret: string;
  enabled: Generated<boolean>;
  created_by_user_id: number | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
}

export interface WebhookEventsTable {
  id: string;
  account_id: number;
  environment: Environment;
  type: string;
  object_type: string;
  object_id: number;
  data: Json<unknown> | null;
  created_at: Timestamp;
}

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  event_id: string;
  endpoint_id: number;
  status: 'pending' | 'succeeded' | 'failed';
  attempts: Generated<number>;
  next_attempt_at: NullableTimestamp;
  last_status_code: number | null;
  last_error: string | null;
  created_at: CreatedAt;
  updated_at: UpdatedAt;
  completed_at: NullableTimestamp;
  /** The attempt in flight holds the row: its delivery UUID, until the lease ends (migration 0002). */
  locked_by: string | null;
  locked_until: NullableTimestamp;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  attempt: number;
  delivery_uuid: string;
  started_at: Timestamp;
  duration_ms: number | null;
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
  /** Stable failure code (`http_status`, `timeout`, `blocked`, ..., `abandoned`) (migration 0002). */
  error_code: string | null;
}

export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;
export type WebhookEventRow = Selectable<WebhookEventsTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;
