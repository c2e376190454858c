import { EMAIL_PATTERN, MAX_EMAIL_LENGTH } from '@esign/domain';
import { z } from 'zod';
import { LocaleTag } from './signature-requests.ts';

// Issue 34.3: signing.delegate, a signer hands their turn to another person (the request must
// allow it: `allow_delegation`).

export const DelegateInput = z.object({
  token: z.string().min(20).max(200),
  session: z.string().max(200).optional(),
  name: z.string().trim().min(1, 'Enter the name of the person who signs instead').max(200),
  email: z
    .email({ pattern: EMAIL_PATTERN, error: 'Enter a valid email address' })
    .max(MAX_EMAIL_LENGTH)
    .optional(),
  phone: z
    .string()
    .trim()
    .regex(/^\+?[0-9 ()./-]{5,30}$/, 'Enter a phone number in international format')
    .optional(),
  reason: z.string().trim().min(1, 'Say why someone else signs instead').max(2000),
  /**
   * The language the new person reads (issue 32): their invitation, codes, signing page and audit
   * labels. Without it they read the request's language, else the account's, else their browser's:
   * never the first signer's own choice.
   */
  locale: LocaleTag.optional(),
});

export const DelegateOutput = z.object({ delegated: z.literal(true) });
