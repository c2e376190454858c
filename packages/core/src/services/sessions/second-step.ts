import type { Executor, FirstFactor, Tx } from '@esign/db';
import { countPasskeys } from '@esign/db/queries/passkeys';
import {
  acceptTotpStep,
  countSignInChallengeFailure,
  countUserAuditSince,
  findLiveSignInChallenge,
  findTotp,
  insertSignInChallenge,
  useRecoveryCode,
  useSignInChallenge,
} from '@esign/db/queries/two-step';
import { findUserStanding } from '@esign/db/queries/users';
import type { Config } from '../../config.ts';
import { randomToken, sha256Hex } from '../../crypto.ts';
import { CoreError } from '../../errors.ts';
import { recordAudit } from '../audit.ts';
import type { ServiceContext } from '../service-context.ts';
import { createSession, type NewSession, type SessionMeta } from './sessions.ts';
import { assertSignInMethodAllowed } from './sso-rule.ts';
import { looksLikeRecoveryCode, openTotpSeed, recoveryCodeHash, totpStepOf } from './totp.ts';

// The second step of a sign-in (issue 45): after a correct first step (password, sign-in link,
// password reset) a user with an authenticator app gets a challenge, not a session; the session
// opens only when the challenge comes back with a code from the app or a recovery code.
//
// Guessing is limited like the email codes (signing/code-policy.ts): a challenge takes 5 wrong
// codes, then the password is asked again (itself rate-limited); and a user gets at most 10 wrong
// codes an hour over all challenges (a sliding window over the `user.second_step_failed` audit
// entries). A code is accepted once: its time step is stored and a later code must be newer.

const SECOND_STEP_TTL_MS = 10 * 60_000;
export const SECOND_STEP_MAX_ATTEMPTS = 5;
export const SECOND_STEP_FAILURES_PER_HOUR = 10;
const SECOND_STEP_FAILED = 'user.second_step_failed';

/** A sign-in's outcome: a session, or a challenge for the second step. */
export type SignInOutcome =
  | { kind: 'session'; session: NewSession }
  | { kind: 'second_step'; token: string; expiresAt: Date; methods: Array<'totp' | 'passkey'> };

/** Which second steps a user can give: `totp` (a code or a recovery code) and/or `passkey`. */
async function secondStepMethods(db: Executor, userId: number): Promise<Array<'totp' | 'passkey'>> {
  const methods: Array<'totp' | 'passkey'> = [];
  if ((await findTotp(db, userId))?.confirmed_at) methods.push('totp');
  if ((await countPasskeys(db, userId)) > 0) methods.push('passkey');
  return methods;
}

const methodOf = (first: FirstFactor) => (first === 'link' ? 'link' : 'password');

/** After a correct first step: the session, or the challenge when the user has a second step. */
export async function afterFirstStep(
  db: Executor,
  userId: number,
  opts: SessionMeta & { now: Date; firstFactor: FirstFactor },
): Promise<SignInOutcome> {
  const { firstFactor, ...meta } = opts;
  const standing = await findUserStanding(db, userId);
  if (standing) await assertSignInMethodAllowed(db, { userId, accountId: standing.account_id });
  const methods = await secondStepMethods(db, userId);
  if (methods.length === 0) {
    return {
      kind: 'session',
      session: await createSession(db, userId, { ...meta, method: methodOf(firstFactor) }),
    };
  }
  const token = randomToken(32);
  const expiresAt = new Date(opts.now.getTime() + SECOND_STEP_TTL_MS);
  await insertSignInChallenge(db, {
    tokenHash: sha256Hex(token),
    userId,
    firstFactor,
    now: opts.now,
    expiresAt,
  });
  return { kind: 'second_step', token, expiresAt, methods };
}

/** The user a code is checked for, and where the audit entries go. */
export interface CodeUser {
  userId: number;
  accountId: number;
}

/** Refuses a check when the user already had SECOND_STEP_FAILURES_PER_HOUR wrong codes in the last hour. */
export async function limitSecondStepFailures(sc: ServiceContext, userId: number): Promise<void> {
  const now = sc.now();
  const since = new Date(now.getTime() - 3600_000);
  const failures = await countUserAuditSince(sc.db, { userId, type: SECOND_STEP_FAILED, since });
  if (failures >= SECOND_STEP_FAILURES_PER_HOUR) {
    throw new CoreError(
      'rate_limited',
      'Too many wrong codes in the last hour. Wait a while, then try again, or ask an admin of the account.',
      { retryAfterSeconds: 3600 },
    );
  }
}

/** Records a wrong code (its own statement: it stays when the request fails). */
export async function recordSecondStepFailure(
  sc: ServiceContext,
  user: CodeUser,
  meta: SessionMeta & { purpose: string },
): Promise<void> {
  await recordAudit(
    sc.db,
    { accountId: user.accountId, environment: 'live' },
    {
      type: SECOND_STEP_FAILED,
      by: {
        kind: 'user',
        userId: user.userId,
        ip: meta.ip,
        userAgent: meta.userAgent?.slice(0, 500) ?? null,
      },
      data: { purpose: meta.purpose },
      now: sc.now(),
    },
  );
}

/**
 * Spends a code of the user: an app code (not used before) or an unused recovery code. Returns
 * which, or null when it is neither. A recovery code's use is recorded in the audit log.
 */
export async function spendSecondStepCode(
  tx: Tx,
  config: Config,
  input: CodeUser & { code: string; now: Date; meta: SessionMeta },
): Promise<'totp' | 'recovery_code' | null> {
  const { userId, code, now } = input;
  const totp = await findTotp(tx, userId);
  if (!totp?.confirmed_at) return null;
  if (looksLikeRecoveryCode(code)) {
    const codeHash = recoveryCodeHash(config, userId, code);
    if (!(await useRecoveryCode(tx, { userId, codeHash, now }))) return null;
    await recordAudit(
      tx,
      { accountId: input.accountId, environment: 'live' },
      {
        type: 'user.recovery_code_used',
        by: {
          kind: 'user',
          userId,
          ip: input.meta.ip,
          userAgent: input.meta.userAgent?.slice(0, 500) ?? null,
        },
        now,
      },
    );
    return 'recovery_code';
  }
  const step = totpStepOf(openTotpSeed(config, userId, totp.secret_sealed), code.replace(/\s/g, ''), now);
  if (step === null) return null;
  return (await acceptTotpStep(tx, { userId, step, confirmed: true, now })) ? 'totp' : null;
}

const EXPIRED = 'This sign-in has expired or had too many wrong codes. Sign in again.';
const WRONG_CODE =
  'The code is wrong or was already used. Enter the current code from your app, or a recovery code.';

/** The second step: the challenge from the first step and a code open the session. */
export async function completeSecondStep(
  sc: ServiceContext,
  input: { token: string; code: string },
  meta: SessionMeta,
): Promise<NewSession> {
  const now = sc.now();
  const challenge = await findLiveSignInChallenge(sc.db, sha256Hex(input.token), {
    now,
    maxAttempts: SECOND_STEP_MAX_ATTEMPTS,
  });
  if (!challenge) throw new CoreError('invalid_request', EXPIRED);
  const user = await findUserStanding(sc.db, challenge.user_id);
  if (!user || user.disabled_at || user.archived_at) {
    throw new CoreError('unauthenticated', 'This user can no longer sign in; ask an admin of the account');
  }
  const codeUser = { userId: user.id, accountId: user.account_id };
  await limitSecondStepFailures(sc, user.id);
  const session = await sc.db.transaction().execute(async (tx) => {
    const used = await spendSecondStepCode(tx, sc.config, { ...codeUser, code: input.code, now, meta });
    if (!used) return null;
    if (!(await useSignInChallenge(tx, challenge.id, now))) throw new CoreError('invalid_request', EXPIRED);
    return createSession(tx, user.id, {
      ...meta,
      now,
      method: `${methodOf(challenge.first_factor)}+${used}`,
    });
  });
  if (session) return session;
  await countSignInChallengeFailure(sc.db, challenge.id);
  await recordSecondStepFailure(sc, codeUser, { ...meta, purpose: 'sign_in' });
  throw new CoreError('invalid_parameter', WRONG_CODE);
}
