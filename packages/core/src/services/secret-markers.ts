// What the outbox purge rules of mail (mail-secrets.ts) and SMS (sms/secrets.ts) share: the kinds
// of message that carry a signing link or a code, and the text a purged body is replaced with.

/** Kinds of message that carry a signing link. */
export const SIGNING_LINK_KINDS = ['invitation', 'next_signer', 'reminder', 'resend'] as const;
/** The kind of message that carries a one-time code. */
export const CODE_KIND = 'otp';

export const SENT_MARKER =
  '[Removed after it was sent: the outbox keeps who, what and when, not the link or code.]';
export const SPENT_MARKER = '[Removed: the signing link or code in this email no longer works.]';
