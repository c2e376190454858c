import { FIELD_TYPES, SIGNER_STATUSES } from '@esign/domain';
import { z } from 'zod';
import { FieldAreaOutput } from './templates.schemas.ts';

/** The signer's token: the last path segment of `signing_url`. */
const token = z.string().min(20).max(200);
/** Returned by verifyCode when an email code is required; send it with every later call. */
const session = z.string().max(200).optional();

export const SigningTokenInput = z.object({ token, session });
export const VerifyCodeInput = z.object({ token, code: z.string().trim().min(4).max(12) });
export const SaveValuesInput = z.object({ token, session, values: z.record(z.string(), z.unknown()) });
export const DeclineInput = z.object({ token, session, reason: z.string().trim().min(1).max(2000) });

export const SigningFieldOutput = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(FIELD_TYPES),
  required: z.boolean(),
  options: z.array(z.string()).optional(),
  areas: z.array(FieldAreaOutput),
  value: z.unknown(),
  /** true when the value came from the sender's prefill (the page shows it read-only) */
  prefilled: z.boolean(),
});

export const SigningOpenOutput = z.object({
  object: z.literal('signing_session'),
  status: z.enum(SIGNER_STATUSES),
  /** true for the template editor's preview link: nothing entered is saved, nothing can be signed */
  preview: z.boolean(),
  request: z.object({
    id: z.number().int(),
    status: z.string(),
    title: z.string(),
    message: z.object({ subject: z.string().optional(), body: z.string().optional() }).nullable(),
    expires_at: z.string().nullable(),
    test_mode: z.boolean(),
  }),
  signer: z.object({
    id: z.number().int(),
    name: z.string().nullable(),
    email: z.string().nullable(),
    role: z.string().nullable(),
  }),
  /** true while an emailed one-time code must be entered before documents and fields are shown */
  code_required: z.boolean(),
  documents: z.array(
    z.object({
      index: z.number().int(),
      name: z.string(),
      pages: z.array(
        z.object({ number: z.number().int(), width: z.number(), height: z.number(), image_url: z.string() }),
      ),
    }),
  ),
  /** this signer's fields only; empty while code_required */
  fields: z.array(SigningFieldOutput),
  redirect_url: z.string().nullable(),
});

export const RequestCodeOutput = z.object({
  sent: z.literal(true),
  email: z.string(),
  expires_at: z.string(),
});
export const VerifyCodeOutput = z.object({ verified: z.literal(true), session: z.string() });
export const SaveValuesOutput = z.object({
  saved: z.literal(true),
  values: z.record(z.string(), z.unknown()),
});
export const CompleteOutput = z.object({ redirect_url: z.string().nullable() });
export const DeclineOutput = z.object({ declined: z.literal(true) });
