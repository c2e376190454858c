import { sql } from 'kysely';
import { compiledOnce, type Executor, json } from '../connection.ts';
import type { Scope } from '../scope.ts';
import type { NewAuditEvent } from './audit.ts';
import { insertInChunks } from './chunks.ts';

// Webhook events (the outbox's events): an event written with its subscribers found in the same
// statement, its deliveries (the fan-out), and the data last sent for an object.

/** An event to record. */
export interface EventInsert {
  id: string;
  type: string;
  objectType: string;
  objectId: number;
  createdAt: Date;
  /** The audit row of the same change, written by the same statement. */
  audit?: NewAuditEvent;
}

/**
 * Writes the event (and the audit row given with it) and, in the same statement, finds the enabled endpoints of its account side
 * subscribed to its type (none for `webhook.test`, which goes to the one endpoint it was sent to),
 * by id.
 */
export async function insertEventFindSubscribers(
  tx: Executor,
  scope: Scope,
  event: EventInsert,
): Promise<number[]> {
  const { audit, ...e } = event;
  const auditColumns = audit
    ? Object.keys(audit).filter((c) => audit[c as keyof NewAuditEvent] !== undefined)
    : [];
  const values: Record<string, unknown> = {
    id: e.id,
    accountId: scope.accountId,
    environment: scope.environment,
    type: e.type,
    objectType: e.objectType,
    objectId: e.objectId,
    createdAt: e.createdAt,
    types: json([e.type]),
  };
  for (const c of auditColumns) values[`audit:${c}`] = audit![c as keyof NewAuditEvent];
  const rows = await eventAndSubscribers(
    tx,
    { auditColumns: audit ? auditColumns : null, test: e.type === 'webhook.test' },
    values,
  );
  return rows.map((r) => r.id);
}

interface EventShape {
  /** The audit row's columns, null without one. */
  auditColumns: string[] | null;
  /** `webhook.test` goes to the one endpoint it was sent to: no subscribers. */
  test: boolean;
}

/**
 * The statement of insertEventFindSubscribers, built and compiled once per shape and run prepared:
 * nearly every change records an event (a send's own statement, issue 31).
 */
const eventAndSubscribers = compiledOnce(
  'esign_event_subscribers',
  (s: EventShape) => `${+s.test}:${s.auditColumns?.join(',') ?? '-'}`,
  (db, v: Record<string, unknown>, s: EventShape) => {
    const recorded = db.with('recorded', (q) =>
      q.insertInto('webhook_events').values({
        id: v.id as string,
        account_id: v.accountId as number,
        environment: v.environment as Scope['environment'],
        type: v.type as string,
        object_type: v.objectType as string,
        object_id: v.objectId as number,
        created_at: v.createdAt as Date,
      }),
    );
    const auditRow = s.auditColumns
      ? (Object.fromEntries(s.auditColumns.map((c) => [c, v[`audit:${c}`]])) as unknown as NewAuditEvent)
      : null;
    // The audit row's CTE adds a name the select does not use: seen as `recorded` alone.
    const writes = auditRow
      ? (recorded.with('audited', (q) =>
          q.insertInto('audit_events').values(auditRow),
        ) as unknown as typeof recorded)
      : recorded;
    return writes
      .selectFrom('webhook_endpoints')
      .select('id')
      .where('account_id', '=', v.accountId as number)
      .where('environment', '=', v.environment as Scope['environment'])
      .where('enabled', '=', true)
      .where(sql<boolean>`events @> ${v.types}::jsonb`)
      .$if(s.test, (qb) => qb.where(sql<boolean>`false`))
      .orderBy('id');
  },
);

/** The bind parameters one delivery row takes in the insert below. */
const DELIVERY_PARAMETERS = 6;

/**
 * Pending deliveries of one event, one per endpoint, due at `at`; their ids in endpoint order. One
 * statement (as many as the parameter limit needs for endpoints an account had before
 * WEBHOOK_MAX_ENDPOINTS bounded them).
 */
export async function insertEventDeliveries(
  tx: Executor,
  delivery: { eventId: string; endpointIds: readonly number[]; at: Date },
): Promise<number[]> {
  const ids = await insertInChunks(delivery.endpointIds, DELIVERY_PARAMETERS, (chunk) =>
    tx
      .insertInto('webhook_deliveries')
      .values(
        chunk.map((endpointId) => ({
          event_id: delivery.eventId,
          endpoint_id: endpointId,
          status: 'pending' as const,
          next_attempt_at: delivery.at,
          created_at: delivery.at,
          updated_at: delivery.at,
        })),
      )
      .returning('id')
      .execute(),
  );
  return ids.map((r) => r.id);
}

/**
 * The last data sent for an object (the event `eventId`'s own first, then the newest), for an
 * event whose object is gone; undefined when none was ever sent.
 */
export async function findLastSentEventData(
  db: Executor,
  scope: Scope,
  object: { objectType: string; objectId: number; eventId: string },
): Promise<{ data: unknown } | undefined> {
  return db
    .selectFrom('webhook_events')
    .select('data')
    .where('account_id', '=', scope.accountId)
    .where('environment', '=', scope.environment)
    .where('object_type', '=', object.objectType)
    .where('object_id', '=', object.objectId)
    .where('data', 'is not', null)
    .orderBy(sql`id = ${object.eventId}`, 'desc')
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
}
