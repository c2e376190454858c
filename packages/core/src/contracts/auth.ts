import { z } from 'zod';

// Dashboard sign-in (README, "Dashboard"). Pure zod: the dashboard's forms validate with these too.

export const NewPassword = z
  .string()
  .min(8, 'Use at least 8 characters')
  .max(200, 'Use at most 200 characters');

const EmailAddress = z.string().trim().max(254).pipe(z.email('Enter a valid email address'));

export const SignInInput = z.object({
  email: z.string().trim().min(1, 'Enter your email address').max(254),
  password: z.string().min(1, 'Enter your password').max(1000),
});

export const EmailInput = z.object({ email: EmailAddress });

/**
 * Where the emailed sign-in link returns to once used: a path on this site only (never
 * `//host`, `/\\host` or a URL), such as the OAuth consent page that sent the user to sign in.
 */
export const NextPath = z
  .string()
  .max(2000)
  .regex(/^\/(?![/\\])/, 'next must be a path on this site');

export const SignInLinkInput = EmailInput.extend({ next: NextPath.optional() });

export const TokenInput = z.object({ token: z.string().min(20).max(200) });

export const ResetPasswordInput = z.object({ token: z.string().min(20).max(200), password: NewPassword });

export const SignUpInput = z.object({
  email: EmailAddress,
  password: NewPassword,
  name: z.string().trim().max(200).optional(),
  account_name: z.string().trim().max(200).optional(),
});

export const AcceptInvitationInput = z.object({
  token: z.string().min(20).max(200),
  name: z.string().trim().min(1, 'Enter your name').max(200),
  password: NewPassword,
});

/** A code from the authenticator app (6 digits) or a recovery code (`xxxxx-xxxxx`). */
export const SecondStepCode = z.string().trim().min(1, 'Enter the code').max(40);

/** The second step of a sign-in: the challenge the first step returned and a code. */
export const SecondStepInput = z.object({ token: z.string().min(20).max(200), code: SecondStepCode });

export const CodeInput = z.object({ code: SecondStepCode });

export const SecondStepRuleInput = z.object({ required: z.boolean() });
