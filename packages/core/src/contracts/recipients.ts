import { EMAIL_PATTERN, MAX_EMAIL_LENGTH, REQUEST_STATUSES, SIGNER_STATUSES } from '@esign/domain';
import { LOCALES } from '@esign/i18n';
import { z } from 'zod';
import { SigningBrandOutput } from './brands.ts';
import { DateTime } from './ids.ts';

// Issue 34 items 1 and 4: the people a request is copied to, as optional extensions of
// POST /signature_requests (the spec's fields stay as they are) and an account setting.

/** At most this many `cc` addresses, and as many `notify` addresses, per request (defaults included). */
export const MAX_CC = 10;
export const MAX_NOTIFY = 10;

const email = z.email({ pattern: EMAIL_PATTERN }).max(MAX_EMAIL_LENGTH);

export const CcInput = z
  .array(email)
  .max(MAX_CC)
  .describe(
    `extension (not in the spec): at most ${MAX_CC} email addresses copied on the request. Each gets an email when it is sent, with a read-only link (the documents and who has signed so far; never a way to sign), and the signed documents and audit trail when it completes. The account's default CC addresses are added (duplicates once).`,
  );

export const NotifyInput = z
  .array(email)
  .max(MAX_NOTIFY)
  .describe(
    `extension (not in the spec): at most ${MAX_NOTIFY} email addresses told when the request completes, is declined, expires or is canceled, with the links the sender sees (the request in the dashboard; the signed documents and audit trail once completed). The account's default notify addresses are added.`,
  );

/** The account setting: addresses added to every request the account sends (dashboard, Account page). */
export const RecipientDefaultsInput = z.object({
  cc: CcInput.default([]),
  notify: NotifyInput.default([]),
});

export const RecipientDefaultsOutput = z.object({
  object: z.literal('recipient_defaults'),
  cc: z.array(z.string()),
  notify: z.array(z.string()),
});

export const CcTokenInput = z.object({ token: z.string().min(1).max(200) });

/** What a CC recipient's read-only link shows: the documents and who has signed so far. */
export const CcViewOutput = z.object({
  object: z.literal('cc_view'),
  /** the page's language: the request's (as its CC emails), else the account's, else the browser's */
  locale: z.enum(LOCALES),
  title: z.string(),
  status: z.enum(REQUEST_STATUSES),
  sender: z.string().nullable(),
  signers: z.array(
    z.object({
      role: z.string().nullable(),
      name: z.string().nullable(),
      status: z.enum(SIGNER_STATUSES),
      signed_at: DateTime.nullable(),
    }),
  ),
  documents: z.array(z.object({ name: z.string(), url: z.string() })),
  audit_trail_url: z.string().nullable(),
  created_at: DateTime,
  completed_at: DateTime.nullable(),
  /** Issue 44: the request's brand (its own, its template's, the default), or null. */
  brand: SigningBrandOutput.nullable(),
});
export type CcView = z.infer<typeof CcViewOutput>;
