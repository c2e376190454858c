import { z } from 'zod';
import { DateTime, IdOutput } from './ids.ts';

export const MeOutput = z.object({
  object: z.literal('me'),
  user: z.object({ id: IdOutput, email: z.string(), name: z.string().nullable() }),
  account: z.object({ id: IdOutput, name: z.string().nullable() }),
  environment: z.enum(['live', 'test']),
  api_key: z
    .object({
      id: IdOutput,
      name: z.string(),
      permission: z.enum(['full', 'read']),
      expires_at: DateTime.nullable(),
    })
    .nullable(),
});

export const CreditsOutput = z.object({
  object: z.literal('credits'),
  unlimited: z.boolean(),
  available: z.number().int().nullable(),
  overdraft_limit: z.number().int(),
  can_send: z.boolean(),
  billing: z.string(),
  purchase_url: z.string(),
});

export const AccountOutput = MeOutput.extend({
  credits: CreditsOutput,
  // Issue 44: the brands send_signature_request's `brand_id` may name (the MCP tools stay 18).
  brands: z
    .array(z.object({ id: IdOutput, name: z.string(), is_default: z.boolean() }))
    .describe("the account's brands (newest first, at most 100): pass one's id as brand_id when sending"),
});

export const EmptyInput = z.object({}).strict().optional().default({});
