/** A signature request's `status` (spec: Signature request object). */
export const REQUEST_STATUSES = [
  'sent',
  'in_progress',
  'completed',
  'declined',
  'expired',
  'canceled',
] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/** Statuses in which a request can still be signed (until its `expires_at` passes). */
export const OPEN_REQUEST_STATUSES = ['sent', 'in_progress'] as const satisfies readonly RequestStatus[];

/** A signer's `status` (spec: Signer object). */
export const SIGNER_STATUSES = ['waiting', 'ready', 'sent', 'viewed', 'signed', 'declined'] as const;
export type SignerStatus = (typeof SIGNER_STATUSES)[number];

/** A signer who signed or declined is finished: their link no longer opens and they cannot change. */
export const FINISHED_SIGNER_STATUSES = ['signed', 'declined'] as const satisfies readonly SignerStatus[];

/**
 * Issue 47: the part a participant of a request plays (a signer's `kind`, default `signer`). An
 * approver's approval and a viewer's acknowledgement finish them as `signed` does a signer's
 * (status `signed`, counted for order and completion); an approver's rejection is `declined`.
 */
export const PARTICIPANT_KINDS = ['signer', 'approver', 'viewer'] as const;
export type ParticipantKind = (typeof PARTICIPANT_KINDS)[number];
