import { type Executor, json } from '@esign/db';
import { insertAuditEvent, type NewAuditEvent } from '@esign/db/queries/audit';
import type { Actor, Scope } from '../context.ts';

// The audit trail's rows (`audit_events`): written in the transaction of the change they record,
// and drawn into the signed audit trail when a request is sealed.

/** Who did it, as the audit trail records them. */
export type AuditBy =
  | { kind: 'actor'; actor: Actor }
  | { kind: 'signer'; signerId: number; ip: string | null; userAgent: string | null }
  /** A dashboard user before or outside a session (a sign-in's second step). */
  | { kind: 'user'; userId: number; ip: string | null; userAgent: string | null }
  | { kind: 'system' };

export interface AuditEntry {
  type: string;
  by: AuditBy;
  signatureRequestId?: number | null;
  templateId?: number | null;
  signerId?: number | null;
  data?: Record<string, unknown>;
  now: Date;
}

function whoColumns(by: AuditBy) {
  switch (by.kind) {
    case 'actor':
      return {
        actor_type: by.actor.kind,
        actor_id: String(by.actor.userId),
        api_key_id: by.actor.apiKeyId,
      };
    case 'signer':
      return {
        actor_type: 'signer',
        actor_id: String(by.signerId),
        ip: by.ip,
        user_agent: by.userAgent,
      };
    case 'user':
      return { actor_type: 'user', actor_id: String(by.userId), ip: by.ip, user_agent: by.userAgent };
    case 'system':
      return { actor_type: 'system' };
  }
}

/**
 * Records one audit entry for an account side; call it with the transaction of the change (the
 * pool only for an entry that records no change of its own, such as sealing giving up).
 */
export async function recordAudit(tx: Executor, scope: Scope, entry: AuditEntry): Promise<void> {
  await insertAuditEvent(tx, auditRow(scope, entry));
}

/** The row an entry is stored as (for a statement that writes it beside something else). */
export function auditRow(scope: Scope, entry: AuditEntry): NewAuditEvent {
  return {
    account_id: scope.accountId,
    environment: scope.environment,
    signature_request_id: entry.signatureRequestId ?? null,
    template_id: entry.templateId ?? null,
    signer_id: entry.signerId ?? null,
    type: entry.type,
    ...whoColumns(entry.by),
    ...(entry.data === undefined ? {} : { data: json(entry.data) }),
    created_at: entry.now,
  };
}
