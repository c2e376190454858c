import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../connection.ts';
import type { AuditEventsTable } from '../schema.ts';

// The audit trail's rows (`audit_events`). core's services/audit.ts decides what an entry says;
// these write and read them.

export type AuditEventRow = Selectable<AuditEventsTable>;
export type NewAuditEvent = Insertable<AuditEventsTable>;

/** One audit entry (call it with the transaction of the change it records). */
export async function insertAuditEvent(db: Executor, values: NewAuditEvent): Promise<void> {
  await db.insertInto('audit_events').values(values).execute();
}

/** Every entry of one signature request, oldest first (what the sealed audit trail lists). */
export function listRequestAuditEvents(db: Executor, requestId: number): Promise<AuditEventRow[]> {
  return db
    .selectFrom('audit_events')
    .selectAll()
    .where('signature_request_id', '=', requestId)
    .orderBy('id')
    .execute();
}
