import { z } from 'zod';
import { IdOutput } from './ids.ts';

export const CreateApiKeyInput = z.object({
  environment: z.enum(['live', 'test']),
  permission: z.enum(['full', 'read']),
  name: z.string().trim().max(100, 'Use at most 100 characters').optional(),
  expires_at: z.iso.datetime({ offset: true, message: 'Use a date and time' }).nullable().optional(),
});

export const ApiKeyIdInput = z.object({ id: IdOutput.positive() });
