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
const SecondStepCode = z.string().trim().min(1, 'Enter the code').max(40);

/** The second step of a sign-in: the challenge the first step returned and a code. */
export const SecondStepInput = z.object({ token: z.string().min(20).max(200), code: SecondStepCode });

export const CodeInput = z.object({ code: SecondStepCode });

export const SecondStepRuleInput = z.object({ required: z.boolean() });

// Passkeys (issue 45 item 2): the browser's WebAuthn answers as @simplewebauthn/browser sends them
// (base64url fields); the library on the server checks their content.
const B64 = z
  .string()
  .max(20_000)
  .regex(/^[A-Za-z0-9_-]*={0,2}$/, 'must be base64url');
const CredentialBase = {
  id: B64.min(1).max(1400),
  rawId: B64.min(1).max(1400),
  type: z.literal('public-key'),
  // The one extension output the server reads (whether the credential is discoverable).
  clientExtensionResults: z
    .object({ credProps: z.object({ rk: z.boolean().optional() }).optional() })
    .default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
};

const RegistrationResponse = z.object({
  ...CredentialBase,
  response: z.object({
    clientDataJSON: B64,
    attestationObject: B64,
    authenticatorData: B64.optional(),
    transports: z.array(z.string().max(20)).max(10).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: B64.optional(),
  }),
});

const AuthenticationResponse = z.object({
  ...CredentialBase,
  response: z.object({
    clientDataJSON: B64,
    authenticatorData: B64,
    signature: B64,
    userHandle: B64.optional(),
  }),
});

export const PasskeyName = z
  .string()
  .trim()
  .min(1, 'Give the passkey a name')
  .max(100, 'Use at most 100 characters');

/** The ticket a passkey request was given, and the browser's new credential. */
export const FinishPasskeyRegistrationInput = z.object({
  ticket: z.string().min(20).max(200),
  name: PasskeyName,
  response: RegistrationResponse,
});

export const RenamePasskeyInput = z.object({ id: z.number().int().positive(), name: PasskeyName });
export const PasskeyIdInput = z.object({ id: z.number().int().positive() });

/** A passkey alone: the ticket of startPasskeySignIn and the assertion. */
export const PasskeySignInInput = z.object({
  ticket: z.string().min(20).max(200),
  response: AuthenticationResponse,
});

/** A passkey as the second step: the sign-in's token and the assertion. */
export const PasskeySecondStepInput = z.object({
  token: z.string().min(20).max(200),
  response: AuthenticationResponse,
});
