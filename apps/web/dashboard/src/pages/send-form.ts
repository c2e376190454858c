import { CreateSignatureRequestInput, SignerInput } from '@esign/core/schemas/signature-requests';
import type { UseFormReturn } from 'react-hook-form';
import { z } from 'zod';
import { msg } from '../messages/index.ts';
import { CopiesFormFields, copiesPayload } from './copies-form.ts';
import type { RequestExtras } from './request-extras.tsx';

// The Send page's form (send.tsx): its schema and the request it becomes.

// The form reuses the procedure's own schemas: a signer's name and email rules come from SignerInput,
// and the assembled request is checked with CreateSignatureRequestInput before it is sent.
// A signer needs an email or a phone (issue 42 item 5: the Send page offers what the API offers);
// an empty box is "none". The language and channel are the signer's own when chosen.
const SignerForm = z
  .object({
    role: z.string(),
    // Issue 47: '' is a signer; approver / viewer only for a role without fields.
    kind: z.enum(['', 'approver', 'viewer']).optional(),
    name: SignerInput.shape.name,
    email: z.union([z.literal(''), SignerInput.shape.email.unwrap()]),
    phone: z.string().trim().max(40).optional(),
    locale: z.string().optional(),
    delivery: z.union([z.literal(''), SignerInput.shape.delivery.unwrap()]).optional(),
    prefill: z.record(z.string(), z.union([z.string(), z.boolean()])).optional(),
  })
  .refine((s) => s.email !== '' || Boolean(s.phone), {
    path: ['email'],
    error: () => msg('send.signer.email_or_phone'),
  });
export const SendFormSchema = z.object({
  signers: z.array(SignerForm).min(1),
  signing_order: CreateSignatureRequestInput.shape.signing_order,
  subject: z.string().max(300).optional(),
  body: z.string().max(10_000).optional(),
  expires_on: z.string().optional(),
  require_email_otp: z.boolean(),
  send_email: z.boolean(),
  /** Issue 44: the brand chosen for this request ('' = the template's, else the default). */
  brand_id: z.string().optional(),
  /** Issue 44.4: this request's Reply-To ('' = the brand's, else none). */
  reply_to: z.union([z.literal(''), CreateSignatureRequestInput.shape.reply_to.unwrap()]).optional(),
  ...CopiesFormFields,
});
export type FormValues = z.input<typeof SendFormSchema>;

/** Fields a sender may fill in for a signer beforehand (prefill keys are field names). */
export const PREFILLABLE = new Set(['text', 'number', 'date', 'checkbox', 'select', 'phone']);

export interface TemplateField {
  name?: string | undefined;
  type: string;
  role: string;
  options?: string[] | undefined;
}

function prefillValue(field: TemplateField | undefined, raw: string | boolean): unknown {
  if (field?.type === 'checkbox') return raw === true;
  if (field?.type === 'number') return Number(raw);
  return raw;
}

export type SendForm = UseFormReturn<FormValues>;

/** The request as POST /signature_requests takes it, from the form's values. */
export function toPayload(
  v: FormValues,
  templateId: number,
  fields: TemplateField[],
  /** Issue 34.2, 34.3: reminders and allow_delegation (request-extras.tsx). */
  extras: RequestExtras,
) {
  return {
    ...extras,
    template_id: templateId,
    signing_order: v.signing_order,
    send_email: v.send_email,
    require_email_otp: v.require_email_otp,
    signers: v.signers.map((s) => {
      const prefill = Object.fromEntries(
        Object.entries(s.prefill ?? {})
          .filter(([, value]) => value !== '' && value !== false)
          .map(([name, value]) => [
            name,
            prefillValue(
              fields.find((f) => f.name === name),
              value,
            ),
          ]),
      );
      return {
        role: s.role,
        ...(s.kind ? { kind: s.kind } : {}),
        ...(s.email ? { email: s.email } : {}),
        ...(s.phone ? { phone: s.phone } : {}),
        ...(s.locale ? { locale: s.locale } : {}),
        ...(s.delivery ? { delivery: s.delivery } : {}),
        ...(s.name ? { name: s.name } : {}),
        ...(Object.keys(prefill).length ? { prefill } : {}),
      };
    }),
    ...(v.subject || v.body
      ? { message: { ...(v.subject ? { subject: v.subject } : {}), ...(v.body ? { body: v.body } : {}) } }
      : {}),
    ...(v.expires_on ? { expires_at: new Date(`${v.expires_on}T23:59:59`).toISOString() } : {}),
    ...copiesPayload(v),
    ...(v.brand_id ? { brand_id: Number(v.brand_id) } : {}),
    ...(v.reply_to ? { reply_to: v.reply_to } : {}),
  };
}
