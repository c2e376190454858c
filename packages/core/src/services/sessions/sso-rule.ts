import type { Executor, Tx } from '@esign/db';
import { deleteExpiredSignInAttempts, ssoRequiredFor } from '@esign/db/queries/sso';
import { CoreError } from '../../errors.ts';

// Issue 45 item 4: an account can require single sign-on of everyone but its break-glass admin.
// Checked when a session opens by any other way (password, link, reset, passkey) and again where
// a session is read (sessions.ts), so a session opened before the rule is held to it.

const SSO_REQUIRED_MESSAGE =
  'Your account signs in with single sign-on: use “Sign in with single sign-on” and your work email';

export async function assertSignInMethodAllowed(
  db: Executor,
  user: { userId: number; accountId: number },
): Promise<void> {
  if (await ssoRequiredFor(db, user)) throw new CoreError('forbidden', SSO_REQUIRED_MESSAGE);
}

/**
 * Worker housekeeping: passkey requests, single sign-ons and second-step challenges that expired
 * over an hour ago (none of them can complete; the hour keeps recent ones for a look).
 */
export function pruneSignInAttempts(tx: Tx, now: Date) {
  return deleteExpiredSignInAttempts(tx, new Date(now.getTime() - 3600_000));
}
