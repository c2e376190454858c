import { z } from 'zod';
import { IdOutput } from './ids.ts';
import { LocaleTag } from './signature-requests.ts';

const ROLES = ['admin', 'member', 'viewer'] as const;

export const InviteMemberInput = z.object({
  email: z.string().trim().max(254).pipe(z.email('Enter a valid email address')),
  role: z.enum(ROLES),
});

export const MemberIdInput = z.object({ id: IdOutput.positive() });

export const ChangeRoleInput = z.object({ id: IdOutput.positive(), role: z.enum(ROLES) });

export const UpdateAccountInput = z.object({
  name: z.string().trim().min(1, 'Enter a name').max(200),
});

/** The account's default language for signers (dashboard Account page); null: none. */
export const AccountLanguageInput = z.object({
  default_locale: LocaleTag.nullable().describe(
    'BCP 47 tag: what signers read when neither their signer nor the request names a language',
  ),
});
export const AccountLanguageOutput = z.object({ default_locale: z.string().nullable() });
