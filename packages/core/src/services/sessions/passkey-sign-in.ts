import {
  findSignInChallengeWebauthn,
  setSignInChallengeWebauthn,
  useWebauthnChallenge,
} from '@esign/db/queries/passkeys';
import {
  countSignInChallengeFailure,
  findLiveSignInChallenge,
  useSignInChallenge,
} from '@esign/db/queries/two-step';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/server';
import { sha256Hex } from '../../crypto.ts';
import { CoreError } from '../../errors.ts';
import { hitRateLimit } from '../rate-limit.ts';
import type { ServiceContext } from '../service-context.ts';
import { passkeyRequestOptions, passkeyUserStanding, verifyPasskeyAssertion } from './passkeys.ts';
import { limitSecondStepFailures, recordSecondStepFailure, SECOND_STEP_MAX_ATTEMPTS } from './second-step.ts';
import { createSession, type NewSession, type SessionMeta } from './sessions.ts';
import { assertSignInMethodAllowed } from './sso-rule.ts';

// Signing in with a passkey (issue 45 item 2): alone (a discoverable credential with user
// verification: something the person has and is or knows), or as the second step after a
// password, a sign-in link or a password reset.

/** Passkey sign-ins per address and minute (a wrong passkey costs the attacker a real authenticator). */
const PASSKEY_ATTEMPTS_PER_MINUTE = 20;

/** A passkey alone: the ticket from startPasskeySignIn and the browser's assertion open a session. */
export async function signInWithPasskey(
  sc: ServiceContext,
  input: { ticket: string; response: AuthenticationResponseJSON },
  meta: SessionMeta,
): Promise<NewSession> {
  const now = sc.now();
  if (meta.ip) {
    const hit = await hitRateLimit(sc.db, `sign_in:passkey:ip:${meta.ip}`, {
      limit: PASSKEY_ATTEMPTS_PER_MINUTE,
      now,
    });
    if (hit.limited) {
      throw new CoreError(
        'rate_limited',
        `Too many attempts. Wait ${hit.resetSeconds} seconds, then try again.`,
        {
          retryAfterSeconds: hit.resetSeconds,
        },
      );
    }
  }
  // The ticket is spent in its own statement: a refused assertion cannot be tried again with it.
  const pending = await useWebauthnChallenge(sc.db, {
    ticketHash: sha256Hex(input.ticket),
    purpose: 'sign_in',
    now,
  });
  if (!pending)
    throw new CoreError(
      'invalid_request',
      'This passkey sign-in has expired or was already used. Try again.',
    );
  return sc.db.transaction().execute(async (tx) => {
    const { userId } = await verifyPasskeyAssertion(tx, sc.config, {
      response: input.response,
      challenge: pending.challenge,
      userId: null,
      now,
    });
    const user = await passkeyUserStanding(tx, userId);
    await assertSignInMethodAllowed(tx, { userId, accountId: user.account_id });
    return createSession(tx, userId, { ...meta, now, method: 'passkey' });
  });
}

const EXPIRED = 'This sign-in has expired or had too many wrong tries. Sign in again.';

async function liveChallenge(sc: ServiceContext, token: string) {
  const challenge = await findLiveSignInChallenge(sc.db, sha256Hex(token), {
    now: sc.now(),
    maxAttempts: SECOND_STEP_MAX_ATTEMPTS,
  });
  if (!challenge) throw new CoreError('invalid_request', EXPIRED);
  return challenge;
}

/** A passkey as the second step: options listing the user's passkeys, for this sign-in only. */
export async function startPasskeySecondStep(
  sc: ServiceContext,
  token: string,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const challenge = await liveChallenge(sc, token);
  const options = await passkeyRequestOptions(sc, challenge.user_id);
  if (!options.allowCredentials?.length)
    throw new CoreError('invalid_request', 'You have no passkey; enter a code instead.');
  await setSignInChallengeWebauthn(sc.db, { id: challenge.id, challenge: options.challenge });
  return options;
}

/** The second step with a passkey: the sign-in's token and the assertion open the session. */
export async function completePasskeySecondStep(
  sc: ServiceContext,
  input: { token: string; response: AuthenticationResponseJSON },
  meta: SessionMeta,
): Promise<NewSession> {
  const now = sc.now();
  const challenge = await liveChallenge(sc, input.token);
  const user = await passkeyUserStanding(sc.db, challenge.user_id);
  await limitSecondStepFailures(sc, user.id);
  const expected = await findSignInChallengeWebauthn(sc.db, challenge.id);
  if (!expected) throw new CoreError('invalid_request', 'Ask for the passkey again.');
  try {
    return await sc.db.transaction().execute(async (tx) => {
      await verifyPasskeyAssertion(tx, sc.config, {
        response: input.response,
        challenge: expected,
        userId: user.id,
        now,
      });
      if (!(await useSignInChallenge(tx, challenge.id, now))) throw new CoreError('invalid_request', EXPIRED);
      const first = challenge.first_factor === 'link' ? 'link' : 'password';
      return createSession(tx, user.id, { ...meta, now, method: `${first}+passkey` });
    });
  } catch (e) {
    if (e instanceof CoreError && e.code === 'invalid_request') throw e;
    await countSignInChallengeFailure(sc.db, challenge.id);
    await recordSecondStepFailure(
      sc,
      { userId: user.id, accountId: user.account_id },
      { ...meta, purpose: 'sign_in_passkey' },
    );
    throw e;
  }
}
