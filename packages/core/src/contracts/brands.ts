import { EMAIL_PATTERN, MAX_EMAIL_LENGTH } from '@esign/domain';
import { LOCALES } from '@esign/i18n';
import { z } from 'zod';
import { EMAIL_KINDS, EMAIL_VARIABLES, MAX_BODY, MAX_SUBJECT } from './brand-email.ts';
import { DateTime, IdOutput, IdParam } from './ids.ts';
import { PaginationInput } from './templates.ts';

// Brands (issue 44, extension: not in the specification; docs/branding.md). Shaped like the
// specification's resources: integer ids, snake_case, the list envelope, the error envelope.

const email = z.email({ pattern: EMAIL_PATTERN }).max(MAX_EMAIL_LENGTH);
const webUrl = z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).max(2000);
const color = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^#[0-9a-f]{6}$/, { message: 'expected a colour as #rrggbb' });

/** The default colours: the signing page's own blue (passes every contrast check). */
const DEFAULT_BRAND_COLOR = '#1d4ed8';

const EmailText = z.object({
  subject: z.string().trim().min(1).max(MAX_SUBJECT),
  body: z.string().trim().min(1).max(MAX_BODY),
});

const LOGO_DOC =
  'PNG, JPEG or SVG as base64 (a data: URI prefix is allowed), at most 1 MB; the type is told by the content. An SVG is stored rasterised to PNG (no script, handler or external reference survives)';

const brandFields = {
  name: z.string().trim().min(1).max(100).describe("the brand's display name, shown to signers"),
  logo: z.string().nullable().optional().describe(`${LOGO_DOC}; null removes the logo`),
  primary_color: color.describe(
    'buttons and focus rings (#rrggbb): at least 4.5:1 against white button text and 3:1 against the page background',
  ),
  accent_color: color.describe(
    'links and highlights (#rrggbb): at least 4.5:1 against the white cards and the page background',
  ),
  support_email: email.nullable().optional().describe('where signers ask for help'),
  support_url: webUrl.nullable().optional().describe('a help page for signers'),
  legal_footer: z
    .string()
    .trim()
    .max(2000)
    .nullable()
    .optional()
    .describe('text at the foot of every email and page'),
  from_name: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .nullable()
    .optional()
    .describe("the From display name of the brand's emails (default: the brand's name)"),
  reply_to: email
    .nullable()
    .optional()
    .describe("the Reply-To of the brand's emails unless the request names its own"),
  from_address: email
    .nullable()
    .optional()
    .describe(
      "the From address of the brand's emails; used only when the operator's SMTP allows it (ALLOW_BRAND_FROM_ADDRESS), else the operator's address with the brand's display name. Mind SPF and DKIM for that domain",
    ),
  is_default: z
    .boolean()
    .optional()
    .describe('the brand of every template and request that names none; one per account'),
  email_texts: z
    .partialRecord(z.enum(EMAIL_KINDS), z.partialRecord(z.enum(LOCALES), EmailText))
    .optional()
    .describe(
      `your own words per email kind (${EMAIL_KINDS.join(', ')}) and signer language (${LOCALES.join(', ')}): { subject, body } as mustache templates over ${Object.keys(
        EMAIL_VARIABLES,
      )
        .map((v) => `{{${v}}}`)
        .join(
          ', ',
        )}; the body must contain {{link}}. An unknown or missing variable is 422 naming it. Replaces the stored texts; {} removes them`,
    ),
};

export const CreateBrandInput = z.object({
  ...brandFields,
  primary_color: brandFields.primary_color.default(DEFAULT_BRAND_COLOR),
  accent_color: brandFields.accent_color.default(DEFAULT_BRAND_COLOR),
});
export type CreateBrandInput = z.infer<typeof CreateBrandInput>;

export const UpdateBrandInput = z.object({
  id: IdParam.describe('the brand id'),
  name: brandFields.name.optional(),
  logo: brandFields.logo,
  primary_color: brandFields.primary_color.optional(),
  accent_color: brandFields.accent_color.optional(),
  support_email: brandFields.support_email,
  support_url: brandFields.support_url,
  legal_footer: brandFields.legal_footer,
  from_name: brandFields.from_name,
  reply_to: brandFields.reply_to,
  from_address: brandFields.from_address,
  is_default: brandFields.is_default,
  email_texts: brandFields.email_texts,
});
export type UpdateBrandInput = z.infer<typeof UpdateBrandInput>;

export const BrandIdInput = z.object({ id: IdParam.describe('the brand id') });

export const ListBrandsInput = PaginationInput;

export const BrandOutput = z.object({
  object: z.literal('brand'),
  id: IdOutput,
  name: z.string(),
  logo: z
    .object({
      content_type: z.enum(['image/png', 'image/jpeg']),
      size: z.number().int(),
      data_uri: z.string().optional().describe('the logo itself; absent in list items'),
    })
    .nullable(),
  primary_color: z.string(),
  accent_color: z.string(),
  support_email: z.string().nullable(),
  support_url: z.string().nullable(),
  legal_footer: z.string().nullable(),
  from_name: z.string().nullable(),
  reply_to: z.string().nullable(),
  from_address: z.string().nullable(),
  is_default: z.boolean(),
  email_texts: z.record(
    z.string(),
    z.record(z.string(), z.object({ subject: z.string(), body: z.string() })),
  ),
  created_at: DateTime,
  updated_at: DateTime,
});
export type BrandDto = z.infer<typeof BrandOutput>;

export const BrandListOutput = z.object({
  object: z.literal('list'),
  data: z.array(BrandOutput),
  has_more: z.boolean(),
  next_cursor: z.number().int().nullable(),
});

/** What the signer's pages show of a brand (issue 44 item 2): text escaped by the page, colours contrast-checked. */
export const SigningBrandOutput = z.object({
  name: z.string(),
  logo: z.string().nullable().describe('the cleaned logo as a data: URI (PNG or JPEG), or null'),
  primary_color: z.string(),
  accent_color: z.string(),
  support_email: z.string().nullable(),
  support_url: z.string().nullable(),
});

export const DeletedBrandOutput = z.object({
  object: z.literal('brand'),
  id: IdOutput,
  deleted: z.literal(true),
});

/** The dashboard's preview of a brand's email (issue 44 item 3): sample data, any language. */
export const PreviewBrandEmailInput = z.object({
  id: IdParam.describe('the brand id'),
  kind: z.enum(EMAIL_KINDS),
  locale: z.enum(LOCALES),
  text: EmailText.optional().describe('words being edited, checked as a save checks them'),
});

export const PreviewBrandEmailOutput = z.object({ subject: z.string(), text: z.string(), html: z.string() });
