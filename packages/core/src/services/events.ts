import type { Tx } from '@esign/db';
import type { EventType } from '@esign/domain';
import type { Scope } from '../context.ts';
import { type AuditEntry, auditRow } from './audit.ts';
import { recordAndFanOut } from './webhooks/fan-out.ts';

/** The specification's event types; @esign/domain owns the list. */
export type { EventType };
/** What an event is about; each has its `data` builder in event-data.ts. */
export type EventObjectType = 'template' | 'signature_request' | 'signer' | 'webhook_endpoint';

export interface RecordedEvent {
  id: string;
  type: EventType;
  created_at: Date;
}

/**
 * Records an event in the transaction of the change that causes it: its id and created_at are
 * fixed now, and its deliveries to subscribed endpoints are queued in the same commit.
 */
export async function recordEvent(
  tx: Tx,
  scope: Scope,
  input: {
    type: EventType;
    objectType: EventObjectType;
    objectId: number;
    now: Date;
    /** The audit entry of the same change, written by the event's statement (one round trip less). */
    audit?: AuditEntry;
  },
): Promise<RecordedEvent> {
  const event: RecordedEvent = { id: crypto.randomUUID(), type: input.type, created_at: input.now };
  await recordAndFanOut(tx, {
    ...event,
    ...scope,
    objectType: input.objectType,
    objectId: input.objectId,
    ...(input.audit ? { audit: auditRow(scope, input.audit) } : {}),
  });
  return event;
}
