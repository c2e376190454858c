import {
  EMAIL_PATTERN,
  MAX_EMAIL_LENGTH,
  PARTICIPANT_KINDS,
  REQUEST_STATUSES,
  SIGNER_STATUSES,
  SOURCES,
} from '@esign/domain';
import { canonicalTag, isLanguageTag, LOCALES } from '@esign/i18n';
import { z } from 'zod';
import { BrandIdField, DateTime, IdField, IdOutput, IdParam } from './ids.ts';
import { CcInput, NotifyInput } from './recipients.ts';
import { ReminderInputFields, ReminderOutputFields } from './reminders.ts';
import { PaginationInput } from './templates.ts';

/**
 * `metadata` and `prefill` are checked by the services (a non-object is the spec's
 * invalid_parameter with its own message), so they pass validation as unknown; their documented
 * shape (OpenAPI, MCP tool schemas) is an object.
 */
const objectDoc = (description: string, values: Record<string, unknown> | true) =>
  ({ description, type: 'object', additionalProperties: values }) as const;
/** Metadata values are kept as sent. */
const METADATA_DOC = true;
/** A field's value (@esign/domain FieldValue): text, number, checkbox, chosen options, or null to clear. */
/**
 * How many distinct https image URLs one request's prefills may name (issue 29: each is a
 * download of up to 3 MB and 15 s, and a role may have thousands of image fields).
 */
export const MAX_PREFILL_IMAGE_URLS = 10;

const PREFILL_DOC = {
  anyOf: [
    { type: ['string', 'number', 'boolean', 'null'] },
    { type: 'array', items: { type: 'string' } },
    {
      type: 'object',
      description: 'a file field: { name, type, data } with data a base64 data: URI',
      properties: { name: { type: 'string' }, type: { type: 'string' }, data: { type: 'string' } },
    },
  ],
};

/** The one email rule (@esign/domain); still `format: email` in the OpenAPI document. */
const email = z.email({ pattern: EMAIL_PATTERN }).max(MAX_EMAIL_LENGTH);

/**
 * Where the signing page sends a signer when done: an http(s) URL only, never `javascript:`,
 * `data:` or another scheme a browser or an API reader would run (ASVS 5.1.5).
 */
/**
 * A BCP 47 language tag (`de`, `pt-BR`), stored in its canonical spelling. A well-formed tag of a
 * language we do not have falls back by language (`de-AT` reads German), else to English.
 */
export const LocaleTag = z
  .string()
  .trim()
  .refine(isLanguageTag, { error: 'must be a BCP 47 language tag such as de or pt-BR' })
  .transform(canonicalTag)
  .meta({ examples: ['de', 'pt-BR'] });
const LOCALE_DOC = `languages with their own translations: ${LOCALES.join(', ')}; another valid tag reads its language if we have it, else English`;

const redirectUrl = z.url({ protocol: /^https?$/, error: 'must be an http or https URL' });

/** How signers are reached (issue 32, docs/sending.md "SMS"). */
const Delivery = z
  .enum(['email', 'sms', 'email_and_sms'])
  .describe(
    'email (default): the invitation, reminders and code by email; sms: by SMS to `phone`; email_and_sms: the link by both, the code by SMS. A signer without an address for the channel asked gets the other (phone only: SMS; email only: email). Completion links follow the same channels',
  );

/** Issue 47: the part a participant plays (docs/roles.md); `signer` when left out. */
const ParticipantKindInput = z
  .enum(PARTICIPANT_KINDS)
  .describe(
    'signer (default): fills their fields and signs; approver: reviews every value entered so far and approves or rejects with a reason (a rejection declines the request), fills no field; viewer: opens the documents and acknowledges having read them. Approvers and viewers must fill a role without fields',
  );

export const SignerInput = z.object({
  kind: ParticipantKindInput.optional(),
  role: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe('the template role this signer fills; if omitted, signers fill roles in the order given'),
  name: z.string().trim().max(200).optional().describe("the signer's name"),
  email: email.optional().describe('where the invitation goes; required unless `phone` is given'),
  phone: z
    .string()
    .trim()
    .max(40)
    .optional()
    .describe(
      'international format, e.g. +49 30 1234567; stored in E.164 (+49301234567); a number that cannot exist is 422 invalid_parameter. A signer with only a phone is invited by SMS',
    ),
  external_id: z.string().max(200).optional().describe('your own id; returned in responses and webhooks'),
  metadata: z.unknown().optional().meta(objectDoc('object: stored with the signer', METADATA_DOC)),
  prefill: z
    .unknown()
    .optional()
    .meta(
      objectDoc(
        `object: values keyed by field name; an image or signature field takes a base64 image or an https URL (at most ${MAX_PREFILL_IMAGE_URLS} distinct URLs per request)`,
        PREFILL_DOC,
      ),
    ),
  redirect_url: redirectUrl
    .optional()
    .describe("where this signer goes after signing; overrides the request's"),
  require_email_otp: z
    .boolean()
    .optional()
    .describe(
      "a one-time code (by email, or by SMS as `delivery` says) before viewing and signing; overrides the request's",
    ),
  delivery: Delivery.optional().describe("how this signer gets their link and code; overrides the request's"),
  locale: LocaleTag.optional().describe(
    `BCP 47 language tag of what this signer reads (signing page, emails, consent); overrides the request's locale. ${LOCALE_DOC}`,
  ),
});

export const CreateSignatureRequestInput = z.object({
  template_id: IdField.describe('the template to send (active, with at least one field)'),
  signers: z.array(SignerInput).optional().describe('required: at least 1, at most one per template role'),
  signing_order: z
    .enum(['sequential', 'parallel'])
    .default('sequential')
    .describe('sequential (default): one signer at a time in role order; parallel: everyone at once'),
  send_email: z
    .boolean()
    .default(true)
    .describe('default true; false creates the request without emailing or texting anyone'),
  message: z
    .object({
      subject: z.string().max(300).optional().describe("the invitation email's subject"),
      body: z.string().max(10_000).optional().describe("the invitation email's text"),
    })
    .optional()
    .describe('a custom invitation email'),
  reply_to: email.optional().describe('the Reply-To address of the emails signers get'),
  redirect_url: redirectUrl.optional().describe('where signers go after signing'),
  expires_at: DateTime.optional().describe('ISO 8601 date-time in the future'),
  require_email_otp: z
    .boolean()
    .default(false)
    .describe(
      'default false; every signer must enter a one-time code before viewing and signing, sent by email (by SMS to signers reached by SMS)',
    ),
  delivery: Delivery.optional().describe(
    'the default `delivery` of every signer: set `email_and_sms` to text signers who have a phone as well as email them',
  ),
  embed: z
    .boolean()
    .default(false)
    .describe(
      'true: the request is signed inside your own page with <esign-form> (source `embed`); its pages may be framed only by the origins your account allows',
    ),
  // Issue 34 (extensions): people copied on the request, people told when it ends.
  cc: CcInput.optional(),
  notify: NotifyInput.optional(),
  // Issue 34.2, 34.3 (contracts/reminders.ts).
  ...ReminderInputFields,
  // Issue 44: the brand signers see.
  brand_id: BrandIdField.optional(),
  locale: LocaleTag.optional().describe(
    `BCP 47 language tag for every signer without their own locale; default: the account's default language, else the signer's browser language. ${LOCALE_DOC}`,
  ),
});
/** `embed` is optional for callers inside core (the worker, the link pages): false when left out. */
export type CreateSignatureRequestInput = Omit<
  z.infer<typeof CreateSignatureRequestInput>,
  'embed' | 'allow_delegation'
> & {
  embed?: boolean;
  allow_delegation?: boolean;
};

export const ListSignatureRequestsInput = PaginationInput.extend({
  template_id: IdParam.optional().describe('only requests sent from this template'),
  q: z.string().max(200).optional().describe('case-insensitive search on signer name, email or phone'),
  status: z.string().optional().describe('open, expired, sent, in_progress, completed, declined, canceled'),
});

export const IdInput = z.object({ id: IdParam.describe('the signature request id') });

/** A page of the dashboard's requests list: the ids of its requests (at most 100, the page limit). */
export const RequestIdsInput = z.object({ ids: z.array(IdParam).max(100) });

export const SignerIdInput = z.object({ id: IdParam.describe('the signer id') });

export const UpdateSignerInput = z.object({
  id: IdParam.describe('the signer id'),
  name: z.string().trim().max(200).nullable().optional().describe("the signer's name; null clears it"),
  email: z
    .string()
    .nullable()
    .optional()
    .describe('a valid email, or null; the signer must keep an email or a phone'),
  phone: z
    .string()
    .trim()
    .nullable()
    .optional()
    .describe(
      'international format (stored in E.164; a number that cannot exist is 422 invalid_parameter), or null; the signer must keep an email or a phone',
    ),
  external_id: z.string().max(200).nullable().optional().describe('your own id; null clears it'),
  locale: LocaleTag.nullable()
    .optional()
    .describe(
      `BCP 47 language tag of what this signer reads; null falls back to the request's. ${LOCALE_DOC}`,
    ),
  metadata: z.unknown().optional().meta(objectDoc('object; replaces existing metadata', METADATA_DOC)),
  prefill: z
    .unknown()
    .optional()
    .meta(objectDoc('object; merged with existing prefilled values', PREFILL_DOC)),
  resend: z
    .boolean()
    .default(false)
    .describe(
      'send the signing link again, by email or SMS as the signer is reached (only if already invited; at most once every 10 minutes)',
    ),
});

const Value = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.array(z.string()),
  z.record(z.string(), z.unknown()),
  z.null(),
]);
const FileRef = z.object({ name: z.string(), url: z.string() });

export const SignerOutput = z.object({
  object: z.literal('signer'),
  id: IdOutput,
  signature_request_id: IdOutput,
  kind: z
    .enum(['approver', 'viewer'])
    .optional()
    .describe(
      'issue 47: present only for an approver or a viewer (absent: a signer). Their approval or acknowledgement shows as status signed (signed_at its time); a rejection as declined with decline_reason',
    ),
  role: z.string().nullable(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  external_id: z.string().nullable(),
  locale: z.string().nullable().describe('the BCP 47 tag set for this signer, or null'),
  metadata: z.record(z.string(), z.unknown()),
  status: z.enum(SIGNER_STATUSES),
  signing_url: z.string().nullable(),
  sent_at: DateTime.nullable(),
  viewed_at: DateTime.nullable(),
  signed_at: DateTime.nullable(),
  declined_at: DateTime.nullable(),
  decline_reason: z.string().nullable().optional(),
  created_at: DateTime,
  updated_at: DateTime,
  values: z.array(z.object({ field: z.string(), value: Value })).optional(),
  documents: z.array(FileRef).optional(),
});
export type SignerDto = z.infer<typeof SignerOutput>;

export const SignatureRequestOutput = z.object({
  object: z.literal('signature_request'),
  id: IdOutput,
  status: z.enum(REQUEST_STATUSES),
  template: z.object({ id: IdOutput, name: z.string() }).nullable(),
  signing_order: z.enum(['sequential', 'parallel']),
  source: z
    .string()
    .meta({ enum: [...SOURCES], examples: ['api'] })
    .describe('where the record was created: api, mcp, invite (dashboard), link, bulk, embed'),
  created_by: z.object({ id: IdOutput, email: z.string(), name: z.string().nullable() }).nullable(),
  locale: z.string().nullable().describe('the BCP 47 tag set for the request, or null'),
  signers: z.array(SignerOutput),
  expires_at: DateTime.nullable(),
  completed_at: DateTime.nullable(),
  canceled_at: DateTime.nullable(),
  created_at: DateTime,
  updated_at: DateTime,
  documents: z.array(FileRef).nullable().optional(),
  audit_trail_url: z.string().nullable().optional(),
  combined_document_url: z.string().nullable().optional(),
  cc: z.array(z.string()).optional().describe('extension: the addresses copied on the request (issue 34)'),
  notify: z
    .array(z.string())
    .optional()
    .describe(
      'extension: the addresses told when the request completes, is declined, expires or is canceled',
    ),
  ...ReminderOutputFields,
  brand_id: IdOutput.optional().describe('extension: the brand chosen when it was sent, when one was'),
});
export type SignatureRequestDto = z.infer<typeof SignatureRequestOutput>;

export const SignatureRequestListOutput = z.object({
  object: z.literal('list'),
  data: z.array(SignatureRequestOutput),
  has_more: z.boolean(),
  next_cursor: z.number().int().nullable(),
});

export const ReminderOutput = z.object({
  object: z.literal('reminder'),
  signature_request_id: IdOutput,
  reminded_signer_ids: z.array(z.number().int()),
});
