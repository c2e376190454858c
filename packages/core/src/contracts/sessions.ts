import { z } from 'zod';
import { NewPassword } from './auth.ts';
import { IdOutput } from './ids.ts';

export const SessionIdInput = z.object({ id: IdOutput.positive() });

export const EnvironmentInput = z.object({ environment: z.enum(['live', 'test']) });

export const ChangePasswordInput = z.object({
  current_password: z.string().max(1000).optional(),
  password: NewPassword,
});

export const UpdateProfileInput = z.object({
  name: z.string().trim().max(200).nullable().optional(),
  billing_country: z
    .string()
    .trim()
    .regex(/^([A-Za-z]{2})?$/, 'Use a two-letter country code such as US or DE')
    .nullable()
    .optional(),
});
