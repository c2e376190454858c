import { FIELD_TYPES, PARTICIPANT_KINDS, SIGNER_STATUSES } from '@esign/domain';
import { LOCALES } from '@esign/i18n';
import { z } from 'zod';
import { SigningBrandOutput } from './brands.ts';
import { fieldLogicShape } from './field-logic.ts';
import { DateTime, IdOutput } from './ids.ts';
import { FieldAreaOutput } from './templates.ts';

/** The signer's token: the last path segment of `signing_url`. */
const token = z.string().min(20).max(200);
/**
 * Optional: the session signing.verifyCode returns. The web adapter also sets it as an HTTP-only
 * cookie, so browsers need not send it; embedders without cookies pass it with every later call.
 */
const session = z.string().max(200).optional();

/** Issue 47: the page runs hosted (in person) on the host's device; its cookie replaces the code. */
const hosted = z.boolean().optional();
/** Issue 47: in a hosted step, the name the signer typed to confirm it is them. */
const confirmed_name = z.string().trim().max(200).optional();

export const SigningTokenInput = z.object({ token, session, hosted });
export const VerifyCodeInput = z.object({ token, code: z.string().trim().min(4).max(12) });
export const SaveValuesInput = z.object({
  token,
  session,
  hosted,
  values: z.record(z.string(), z.unknown()),
});
/** How a signature or initials value was made on the signing page; kept for the audit trail. */
const SignatureMethod = z.enum(['drawn', 'typed', 'uploaded']);
export const CompleteInput = SaveValuesInput.extend({
  signature_methods: z
    .record(z.string(), SignatureMethod)
    .optional()
    .describe('for signature and initials fields (by name): drawn, typed or uploaded'),
  locale: z
    .enum(LOCALES)
    .optional()
    .describe('the language the page showed the signer; the consent sentence is recorded in it'),
  confirmed_name,
});
/** Issue 47: signing.approve (an approver) and signing.acknowledge (a viewer). */
export const FinishPartInput = z.object({
  token,
  session,
  hosted,
  confirmed_name,
  locale: z.enum(LOCALES).optional(),
});
export const FinishPartOutput = z.object({ redirect_url: z.string().nullable() });
/** signing.setLocale: the language the signer switched to on the page. */
export const SetLocaleInput = z.object({
  token,
  session,
  locale: z.enum(LOCALES).describe('one of the languages the signing page speaks'),
});
export const SetLocaleOutput = z.object({ locale: z.enum(LOCALES), changed: z.boolean() });
export const DeclineInput = z.object({
  token,
  session,
  hosted,
  reason: z.string().trim().min(1).max(2000),
});

const SigningFieldOutput = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(FIELD_TYPES),
  required: z.boolean(),
  options: z.array(z.string()).optional(),
  areas: z.array(FieldAreaOutput),
  ...fieldLogicShape,
  value: z.unknown(),
  /** true when the value came from the sender's prefill (the page shows it read-only) */
  prefilled: z.boolean(),
});

const FilledByOthersOutput = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(FIELD_TYPES),
  role: z.string(),
  signer_name: z.string().nullable(),
  areas: z.array(FieldAreaOutput),
  value: z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]),
});

/** The request's or signer's id; 0 in a template preview, which has neither. */
const SessionId = z.union([IdOutput, z.literal(0)]);

export const SigningOpenOutput = z.object({
  object: z.literal('signing_session'),
  status: z.enum(SIGNER_STATUSES),
  /** true for the template editor's preview link: nothing entered is saved, nothing can be signed */
  preview: z.boolean(),
  request: z.object({
    id: SessionId,
    status: z.string(),
    title: z.string(),
    message: z.object({ subject: z.string().optional(), body: z.string().optional() }).nullable(),
    expires_at: DateTime.nullable(),
    test_mode: z.boolean(),
  }),
  signer: z.object({
    id: SessionId,
    name: z.string().nullable(),
    email: z.string().nullable(),
    role: z.string().nullable(),
    /** issue 47: the part they play (signer, approver, viewer) */
    kind: z.enum(PARTICIPANT_KINDS),
    /** where a one-time code goes: `sms` for a signer reached by SMS (issue 32); unset in a preview */
    code_channel: z.enum(['email', 'sms']).optional(),
  }),
  /** true while an emailed one-time code must be entered before documents and fields are shown */
  code_required: z.boolean(),
  /** issue 47: the page runs hosted on this dashboard user's device (in-person signing) */
  hosted_by: z.object({ name: z.string().nullable(), email: z.string() }).optional(),
  /** issue 34.3: the sender lets this signer hand their turn to someone else (signing.delegate) */
  allow_delegation: z.boolean().optional(),
  documents: z.array(
    z.object({
      index: z.number().int(),
      name: z.string(),
      /** Every page's image: this link with `{page}` replaced by the 1-based page number. */
      page_image_url: z.string(),
      page_count: z.number().int(),
      /**
       * Page sizes in points, in page order, as runs of equal pages: `[count, width, height]`
       * (the counts add up to page_count).
       */
      page_sizes: z.array(z.tuple([z.number().int(), z.number(), z.number()])),
    }),
  ),
  /** this signer's fields only; empty while code_required */
  fields: z.array(SigningFieldOutput),
  /**
   * What other signers who already signed filled in (earlier signers in sequential order, anyone
   * who signed so far in parallel order), to draw read-only where the sealed document will show
   * it; empty while code_required. Values as sealed: pictures as data URIs, files by name.
   */
  filled_by_others: z.array(FilledByOthersOutput),
  /**
   * Issue 46: the other roles' fields the page needs to evaluate this signer's conditions and
   * formulas (name, type, role and their logic); absent when the request has no form logic.
   */
  form_fields: z
    .array(
      z.object({
        name: z.string(),
        type: z.enum(FIELD_TYPES),
        role: z.string(),
        required: z.boolean(),
        options: z.array(z.string()).optional(),
        ...fieldLogicShape,
      }),
    )
    .optional(),
  /**
   * The page's language (signer > request > account default > Accept-Language > English) and
   * where it came from; the signer can switch, and signing.complete records the consent in the
   * language shown.
   */
  locale: z.enum(LOCALES),
  locale_source: z.enum(['signer', 'request', 'account', 'browser', 'default']),
  /** The sentence shown next to the button that signs, in `locale`; signing.complete records it. */
  consent_text: z.string(),
  redirect_url: z.string().nullable(),
  /** Issue 44: the request's brand (its own, its template's, the account's default), when one applies. */
  brand: SigningBrandOutput.optional(),
});

export const RequestCodeOutput = z.object({
  sent: z.literal(true),
  /** how the code went: by email, or by SMS (a signer reached by SMS, issue 32) */
  channel: z.enum(['email', 'sms']),
  /** the address the code was emailed to; null when it was texted */
  email: z.string().nullable(),
  /** where it went, to show the signer: the email address, or the phone masked (+49 ••• 67) */
  to: z.string(),
  expires_at: DateTime,
});
export const VerifyCodeOutput = z.object({ verified: z.literal(true), session: z.string() });
export const SaveValuesOutput = z.object({
  saved: z.literal(true),
  values: z.record(z.string(), z.unknown()),
});
export const CompleteOutput = z.object({ redirect_url: z.string().nullable() });
export const DeclineOutput = z.object({ declined: z.literal(true) });

/** Issue 47: signers.host, in-person signing started on the host's device. */
export const HostedSessionOutput = z.object({
  object: z.literal('hosted_session'),
  signer_id: IdOutput,
  signature_request_id: IdOutput,
  /** the signer's page in hosted mode; it opens only on the browser that started the session */
  signing_url: z.string(),
  expires_at: DateTime,
});
