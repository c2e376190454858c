import { EMAIL_PATTERN, MAX_EMAIL_LENGTH } from '@esign/domain';
import { LOCALES } from '@esign/i18n';
import { z } from 'zod';
import { SigningBrandOutput } from './brands.ts';
import { DateTime, IdOutput, IdParam } from './ids.ts';

const email = z.email({ pattern: EMAIL_PATTERN }).max(MAX_EMAIL_LENGTH);
const token = z.string().min(20).max(200);

const PresetSignerSchema = z.object({
  role: z.string().trim().min(1).max(100),
  name: z.string().trim().max(200).nullable().optional(),
  email,
});

export const SigningLinkIdInput = z.object({ id: IdParam });

export const UpdateSigningLinkInput = z.object({
  id: IdParam,
  enabled: z.boolean().optional().describe('true turns the public link on, false off'),
  role: z
    .string()
    .trim()
    .min(1)
    .max(100)
    .optional()
    .describe('the role a visitor fills; default the first role'),
  preset_signers: z
    .array(PresetSignerSchema)
    .max(9)
    .optional()
    .describe('every other role of the template, filled the same way on each visit'),
  max_uses: z
    .number()
    .int()
    .positive()
    .max(1_000_000)
    .nullable()
    .optional()
    .describe('the most requests the link may create; null: no cap'),
  rotate: z.boolean().optional().describe('true gives the link a new address; the old one stops working'),
});

export const SigningLinkOutput = z.object({
  object: z.literal('signing_link'),
  template_id: IdOutput,
  enabled: z.boolean(),
  url: z.string().nullable(),
  role: z.string().nullable(),
  preset_signers: z.array(PresetSignerSchema),
  max_uses: z.number().int().nullable(),
  uses: z.number().int(),
  updated_at: DateTime.nullable(),
});

export const LinkTokenInput = z.object({ token });
/** The language the visitor reads the link's pages in: their code email and invitation follow it (issue 42.6). */
const locale = z.enum(LOCALES).optional();
export const LinkStartInput = z.object({ token, name: z.string().trim().min(1).max(200), email, locale });
export const LinkConfirmInput = z.object({
  token,
  visit: z.string().min(3).max(100),
  code: z.string().trim().min(4).max(12),
  locale,
});

export const LinkPageOutput = z.object({
  object: z.literal('signing_link_page'),
  status: z.enum(['open', 'off', 'full']),
  title: z.string(),
  role: z.string(),
  /** Issue 44: the template's brand, else the account's default, or null. */
  brand: SigningBrandOutput.nullable(),
});
export const LinkStartOutput = z.object({ visit: z.string(), email: z.string(), expires_at: DateTime });
export const LinkConfirmOutput = z.object({
  signature_request_id: IdOutput,
  signing_url: z.string(),
});
