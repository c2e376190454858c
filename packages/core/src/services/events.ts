import type { Db, Executor, Tx } from '@esign/db';
import { EVENT_TYPES, type EventType } from '@esign/domain';
import type { Config } from '../config.ts';
import type { Scope } from '../context.ts';

/** The specification's event types; @esign/domain owns the list. */
export { EVENT_TYPES, type EventType };
export type EventObjectType = 'template' | 'signature_request' | 'signer' | 'webhook_endpoint';

/**
 * Builds an event's `data` at delivery time (the spec: the object's state at delivery time), in the
 * same shape as the API response. Each resource module registers its builder.
 */
export type EventDataBuilder = (
  db: Db,
  scope: Scope,
  objectId: number,
  ctx: { config: Config; now: Date },
) => Promise<unknown>;
const builders = new Map<EventObjectType, EventDataBuilder>();

export function registerEventDataBuilder(objectType: EventObjectType, builder: EventDataBuilder): void {
  builders.set(objectType, builder);
}

export function eventDataBuilder(objectType: string): EventDataBuilder | undefined {
  return builders.get(objectType as EventObjectType);
}

export interface RecordedEvent {
  id: string;
  type: EventType;
  created_at: Date;
}

/** Hook the webhooks feature installs to fan an event out to subscribed endpoints (same transaction). */
export type EventFanOut = (
  tx: Executor,
  event: RecordedEvent & Scope & { objectType: EventObjectType; objectId: number },
) => Promise<void>;
let fanOut: EventFanOut | null = null;
export function setEventFanOut(fn: EventFanOut): void {
  fanOut = fn;
}

/**
 * Records an event in the transaction of the change that causes it: its id and created_at are
 * fixed now, and its deliveries are queued in the same commit.
 */
export async function recordEvent(
  tx: Tx,
  scope: Scope,
  input: { type: EventType; objectType: EventObjectType; objectId: number; now: Date },
): Promise<RecordedEvent> {
  const id = crypto.randomUUID();
  await tx
    .insertInto('webhook_events')
    .values({
      id,
      account_id: scope.accountId,
      environment: scope.environment,
      type: input.type,
      object_type: input.objectType,
      object_id: input.objectId,
      created_at: input.now,
    })
    .execute();
  const event: RecordedEvent = { id, type: input.type, created_at: input.now };
  if (fanOut)
    await fanOut(tx, { ...event, ...scope, objectType: input.objectType, objectId: input.objectId });
  return event;
}
