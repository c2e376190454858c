import type { Executor } from '@esign/db';
import {
  type DeliveryListRow,
  findAttemptsOfDeliveries,
  findDeliveries,
} from '@esign/db/queries/webhook-deliveries';
import type { Scope } from '../../context.ts';
import { CoreError, notFound } from '../../errors.ts';
import { listPage } from '../list-page.ts';
import type { WebhookAttemptDto, WebhookDeliveryDto, WebhookDeliveryList } from './dto.ts';
import { findEndpoint } from './endpoints.ts';

// Delivery records: every attempt of every delivery, newest first, for the operator and the API.

async function withAttempts(db: Executor, rows: DeliveryListRow[]): Promise<WebhookDeliveryDto[]> {
  const attempts = await findAttemptsOfDeliveries(
    db,
    rows.map((r) => r.id),
  );
  const byDelivery = new Map<number, WebhookAttemptDto[]>();
  for (const a of attempts) {
    const list = byDelivery.get(a.delivery_id) ?? [];
    list.push({
      attempt: a.attempt,
      id: a.delivery_uuid,
      started_at: a.started_at.toISOString(),
      duration_ms: a.duration_ms,
      status_code: a.status_code,
      error: a.error,
      error_code: a.error_code,
      response_excerpt: a.response_excerpt,
    });
    byDelivery.set(a.delivery_id, list);
  }
  return rows.map((r) => ({
    object: 'webhook_delivery',
    id: r.id,
    endpoint_id: r.endpoint_id,
    event: { id: r.event_id, type: r.event_type, created_at: r.event_created_at.toISOString() },
    status: r.status,
    attempt_count: r.attempts,
    next_attempt_at: r.next_attempt_at?.toISOString() ?? null,
    last_status_code: r.last_status_code,
    last_error: r.last_error,
    created_at: r.created_at.toISOString(),
    completed_at: r.completed_at?.toISOString() ?? null,
    attempts: byDelivery.get(r.id) ?? [],
  }));
}

/** One delivery record with every attempt (time, status code, duration, error, response excerpt). */
export async function getWebhookDelivery(
  db: Executor,
  scope: Scope,
  id: number,
): Promise<WebhookDeliveryDto> {
  const [row] = await findDeliveries(db, scope, { id });
  if (!row) throw notFound('Webhook delivery', id);
  const [dto] = await withAttempts(db, [row]);
  return dto!;
}

export interface ListWebhookDeliveriesInput {
  endpointId?: number;
  eventId?: string;
  status?: 'pending' | 'succeeded' | 'failed';
  /** 1..100, default 20. */
  limit?: number;
  /** The previous page's `next_cursor`. */
  cursor?: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Delivery records of an account side, newest first, in the list envelope of the specification. */
export async function listWebhookDeliveries(
  db: Executor,
  scope: Scope,
  input: ListWebhookDeliveriesInput = {},
): Promise<WebhookDeliveryList> {
  const limit = input.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) {
    throw new CoreError('invalid_parameter', 'limit must be an integer from 1 to 100');
  }
  if (input.status !== undefined && !['pending', 'succeeded', 'failed'].includes(input.status)) {
    throw new CoreError('invalid_parameter', 'status must be one of pending, succeeded, failed');
  }
  if (input.eventId !== undefined && !UUID.test(input.eventId)) {
    throw new CoreError('invalid_parameter', 'event id must be a UUID');
  }
  if (input.endpointId !== undefined) await findEndpoint(db, scope, input.endpointId);
  const rows = await findDeliveries(db, scope, {
    ...(input.endpointId === undefined ? {} : { endpointId: input.endpointId }),
    ...(input.eventId === undefined ? {} : { eventId: input.eventId }),
    ...(input.status === undefined ? {} : { status: input.status }),
    ...(input.cursor === undefined ? {} : { cursor: input.cursor }),
    limit: limit + 1,
  });
  return listPage(rows, limit, (page) => withAttempts(db, page));
}
