import type { Locale } from '@esign/i18n';

/** What the audit trail PDF (audit-trail.ts buildAuditTrail) is drawn from. */
export interface AuditTrailInput {
  requestId: number;
  title: string;
  createdAt: Date;
  completedAt: Date | null;
  documents: {
    id: number;
    name: string;
    /** SHA-256 of the file exactly as uploaded; null when not recorded (older templates). */
    uploadedSha256?: string | null;
    /** SHA-256 of the stored original: the upload after conversion and text-tag removal. */
    originalSha256: string;
    sealedSha256: string;
  }[];
  signers: {
    id: number;
    /** Issue 47: the part they played (default signer); names their finishing row (approved, read). */
    kind?: 'signer' | 'approver' | 'viewer';
    role: string | null;
    name: string | null;
    email: string | null;
    phone: string | null;
    ip: string | null;
    userAgent: string | null;
    sentAt: Date | null;
    viewedAt: Date | null;
    signedAt: Date | null;
    declinedAt: Date | null;
    declineReason: string | null;
    otpVerifiedAt: Date | null;
    /** How the signer was authenticated, one line each (e.g. signing link sent by email). */
    authentication?: string[];
    /** The consent to sign electronically they gave: its text and when. */
    consent?: { text: string | null; at: Date } | null;
    /** `method`: how a signature or initials value was made (drawn, typed, uploaded), when recorded. */
    values: { field: string; value: unknown; method?: string | null }[];
  }[];
  events: { at: Date; type: string; detail: string }[];
  /** The sealing itself: when, the PAdES level and the time-stamping authority's time. */
  sealing?: {
    at: Date;
    level: string;
    timestampAuthority: string | null;
    timestampTime: Date | null;
  };
  testMode?: boolean;
  /**
   * The public verify page (`{web base}/verify`): printed with a QR code under the header and in
   * every page's footer, so whoever holds a sealed file can check it without an account.
   */
  verifyUrl?: string;
  /**
   * The language of the labels (@esign/i18n `audit.*`); times are written for its readers with the
   * ISO 8601 UTC time beside them. English when left out.
   */
  locale?: Locale;
  /**
   * Issue 44: the request's brand at the head of the first page: its logo (a cleaned PNG or JPEG
   * as a data: URI) and its display name, as text (nothing in it is markup).
   */
  brand?: { name: string; logo: string | null } | null;
}
