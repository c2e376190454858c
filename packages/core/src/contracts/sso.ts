import { USER_ROLES } from '@esign/domain';
import { z } from 'zod';

// Single sign-on settings (issue 45 item 4): an account's OpenID Connect provider. Pure zod: the
// dashboard's team page validates with these too.

const Domain = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(
    /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
    'Enter a domain such as example.com',
  );

export const SsoSettingsInput = z.object({
  issuer: z
    .url({
      protocol: /^https?$/,
      error: 'issuer must be the provider’s issuer URL, such as https://login.example.com',
    })
    .max(500),
  client_id: z.string().trim().min(1, 'Enter the client ID').max(500),
  /** Omitted: keep the stored secret. */
  client_secret: z.string().min(1).max(2000).optional(),
  domains: z.array(Domain).min(1, 'Enter at least one email domain').max(50),
  default_role: z.enum(USER_ROLES).default('member'),
  role_claim: z.string().trim().min(1).max(100).nullable().default(null),
  role_map: z.record(z.string().min(1).max(200), z.enum(USER_ROLES)).default({}),
  required: z.boolean().default(false),
  /** The admin who keeps signing in without single sign-on; needed when `required`. */
  break_glass_email: z.string().trim().max(254).nullable().default(null),
});
