import type { SignerRow } from '@esign/db';
import type { AuditEventRow } from '@esign/db/queries/audit';
import type { AuditTrailInput } from '@esign/pdf';

// What the audit trail says about how each signer signed, read from the recorded audit events:
// - consent: the `signer.signed` entry records the sentence the signer agreed to in data.consent
//   (signing/complete.ts), at that entry's time;
// - signature method: data.signature_methods ({ field name: drawn|typed|uploaded }) on the same
//   entry, the latest winning.

type TrailSigner = AuditTrailInput['signers'][number];

const METHOD_WORDS: Record<string, string> = {
  draw: 'drawn',
  drawn: 'drawn',
  type: 'typed',
  typed: 'typed',
  upload: 'uploaded',
  uploaded: 'uploaded',
};

const asRecord = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** The consent the signer gave (the latest consent event), or null. */
export function consentOf(events: AuditEventRow[], signerId: number): TrailSigner['consent'] {
  const event = events
    .filter((e) => e.signer_id === signerId && typeof asRecord(e.data).consent === 'string')
    .at(-1);
  if (!event) return null;
  return { text: asRecord(event.data).consent as string, at: event.created_at };
}

/** How each signature / initials field was made, by field name. */
export function signatureMethodsOf(events: AuditEventRow[], signerId: number): Map<string, string> {
  const methods = new Map<string, string>();
  for (const e of events) {
    if (e.signer_id !== signerId) continue;
    const data = asRecord(e.data);
    for (const [field, how] of Object.entries(asRecord(data.signature_methods ?? data.methods))) {
      const word = typeof how === 'string' ? METHOD_WORDS[how.toLowerCase()] : undefined;
      if (word) methods.set(field, word);
    }
  }
  return methods;
}

/** How the signer was authenticated: the signing link's delivery, and the email code when asked. */
export function authenticationOf(signer: SignerRow, events: AuditEventRow[]): string[] {
  const lines: string[] = [];
  if (signer.email) lines.push(`signing link sent by email to ${signer.email}`);
  else lines.push('signing link');
  const verified = events.find((e) => e.signer_id === signer.id && e.type === 'otp.verified');
  if (signer.otp_verified_at || verified) lines.push('one-time code sent by email, entered correctly');
  return lines;
}
