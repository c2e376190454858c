import type { SignatureRequestRow, SignerRow } from '@esign/db';
import { effectiveValues } from '@esign/domain';
import { CoreError } from '../../errors.ts';
import type { FieldValue, RequestSnapshot, SnapshotField } from '../request-model.ts';

// The status rules of the specification (Signature request status, Signer status), as pure
// functions of the rows.

/** One reminder per request per hour. */
export const REMIND_INTERVAL_MS = 3600_000;
/** One `resend` per signer every 10 minutes. */
export const RESEND_INTERVAL_MS = 10 * 60_000;

function isPastExpiry(row: Pick<SignatureRequestRow, 'status' | 'expires_at'>, now: Date): boolean {
  return (row.status === 'sent' || row.status === 'in_progress') && !!row.expires_at && row.expires_at <= now;
}

/** The status as clients must see it: no request is ever shown open after its time. */
export function effectiveStatus(
  row: Pick<SignatureRequestRow, 'status' | 'expires_at'>,
  now: Date,
): SignatureRequestRow['status'] {
  return isPastExpiry(row, now) ? 'expired' : row.status;
}

/** `422 already_completed` on a completed request, `422 not_open` on a canceled, declined or expired one. */
export function assertOpenForChange(row: SignatureRequestRow, now: Date, what: string): void {
  const status = effectiveStatus(row, now);
  if (status === 'completed')
    throw new CoreError('already_completed', `Signature request ${row.id} is already completed`);
  if (status === 'canceled' || status === 'declined' || status === 'expired') {
    throw new CoreError('not_open', `Signature request ${row.id} is ${status}; ${what}`);
  }
}

/** `signed` and `declined` are final. */
export function isFinished(signer: Pick<SignerRow, 'status'>): boolean {
  return signer.status === 'signed' || signer.status === 'declined';
}

/**
 * Whether a signer "has been invited" (POST /signature_requests/{id}/remind): an email with their
 * signing link went out or is queued (the invitation, the next-signer email, or a `resend`). A
 * signer whose turn came on a `send_email: false` request (`ready`) was never invited: the sender
 * shares the link itself.
 */
export function wasInvitedByEmail(signer: Pick<SignerRow, 'sent_at' | 'last_emailed_at'>): boolean {
  return signer.sent_at !== null || signer.last_emailed_at !== null;
}

export function signerFields(snapshot: RequestSnapshot, role: string | null): SnapshotField[] {
  return snapshot.fields.filter((f) => f.role === role);
}

/** A signer's values, prefilled and entered merged by the one rule of @esign/domain. */
export { effectiveValues };
