import { z } from 'zod';

export const MeOutput = z.object({
  object: z.literal('me'),
  user: z.object({ id: z.number().int(), email: z.string(), name: z.string().nullable() }),
  account: z.object({ id: z.number().int(), name: z.string().nullable() }),
  environment: z.enum(['live', 'test']),
  api_key: z
    .object({
      id: z.number().int(),
      name: z.string(),
      permission: z.enum(['full', 'read']),
      expires_at: z.string().nullable(),
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

export const AccountOutput = MeOutput.extend({ credits: CreditsOutput });

export const EmptyInput = z.object({}).strict().optional().default({});
