/** Event types of the spec's Events table, in its order (webhook `type`, the events table). */
export const EVENT_TYPES = [
  'signature_request.created',
  'signature_request.completed',
  'signature_request.canceled',
  'signer.viewed',
  'signer.started',
  'signer.signed',
  'signer.declined',
  'template.created',
  'template.updated',
  'template.archived',
  'webhook.test',
] as const;

/**
 * Extension event types (issue 34; docs/webhooks.md): not in the spec's table, never in an
 * endpoint's default events, delivered only to endpoints that chose them by name.
 */
export const EXTENSION_EVENT_TYPES = [
  'signer.reminded',
  'signer.delegated',
  'signer.sms_capped',
  'signer.sms_undeliverable',
  // Issue 47: an approver approved / rejected (a rejection also sends signer.declined), a viewer
  // acknowledged having read the documents.
  'signer.approved',
  'signer.rejected',
  'signer.viewed_confirmed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number] | (typeof EXTENSION_EVENT_TYPES)[number];

export function isEventType(s: string): s is EventType {
  return (
    (EVENT_TYPES as readonly string[]).includes(s) || (EXTENSION_EVENT_TYPES as readonly string[]).includes(s)
  );
}
