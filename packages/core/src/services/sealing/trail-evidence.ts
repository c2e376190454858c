import type { SignerRow } from '@esign/db';
import type { AuditEventRow } from '@esign/db/queries/audit';
import type { Translate } from '@esign/i18n';
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

/**
 * The signer's entries since their last hand-over (`signer.delegated`, issue 42): what the person
 * who holds the row now did, not the one who handed it on.
 */
function ownSinceHandOver(events: AuditEventRow[], signerId: number): AuditEventRow[] {
  const own = events.filter((e) => e.signer_id === signerId);
  const last = own.findLastIndex((e) => e.type === 'signer.delegated');
  return last < 0 ? own : own.slice(last + 1);
}

/** The consent the signer gave (the latest consent event), or null. */
export function consentOf(events: AuditEventRow[], signerId: number): TrailSigner['consent'] {
  const event = ownSinceHandOver(events, signerId)
    .filter((e) => typeof asRecord(e.data).consent === 'string')
    .at(-1);
  if (!event) return null;
  return { text: asRecord(event.data).consent as string, at: event.created_at };
}

/** How each signature / initials field was made, by field name. */
export function signatureMethodsOf(events: AuditEventRow[], signerId: number): Map<string, string> {
  const methods = new Map<string, string>();
  for (const e of ownSinceHandOver(events, signerId)) {
    const data = asRecord(e.data);
    for (const [field, how] of Object.entries(asRecord(data.signature_methods ?? data.methods))) {
      const word = typeof how === 'string' ? METHOD_WORDS[how.toLowerCase()] : undefined;
      if (word) methods.set(field, word);
    }
  }
  return methods;
}

/**
 * How the signer was authenticated, in the trail's language: the signing link's delivery (email,
 * else SMS), and the one-time code when asked (by the channel its last `otp.sent` entry names).
 */
export function authenticationOf(signer: SignerRow, o: { events: AuditEventRow[]; tr: Translate }): string[] {
  const { events, tr } = o;
  const lines: string[] = [];
  if (signer.email) lines.push(tr('audit.auth_link_email', { email: signer.email }));
  else if (signer.phone) lines.push(tr('audit.auth_link_sms', { phone: signer.phone }));
  else lines.push(tr('audit.auth_link'));
  const own = ownSinceHandOver(events, signer.id);
  if (signer.otp_verified_at || own.some((e) => e.type === 'otp.verified')) {
    const sent = own.filter((e) => e.type === 'otp.sent').at(-1);
    const bySms = asRecord(sent?.data).channel === 'sms';
    lines.push(tr(bySms ? 'audit.auth_code_sms' : 'audit.auth_code_email'));
  }
  // Issue 47: hosted in person, the host's confirmation in place of a code.
  const hosted = own.map((e) => asRecord(e.data)).findLast((d) => d.signer_present === true);
  if (hosted) {
    const by = asRecord(hosted.hosted_by);
    const host =
      typeof by.name === 'string' && by.name ? `${by.name} <${String(by.email)}>` : String(by.email);
    lines.push(tr('audit.hosted', { host, device: String(hosted.device ?? '—') }));
  }
  return lines;
}
