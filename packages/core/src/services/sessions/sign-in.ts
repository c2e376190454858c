import type { Executor } from '@esign/db';
import { insertSignInToken, type SignInTokenPurpose, useSignInToken } from '@esign/db/queries/sessions';
import {
  findSignInUser,
  findUserPasswordHash,
  findUserStanding,
  setUserPasswordHash,
} from '@esign/db/queries/users';
import { hashPassword, passwordNeedsRehash, randomToken, sha256Hex, verifyPassword } from '../../crypto.ts';
import { CoreError } from '../../errors.ts';
import { createAccount } from '../accounts.ts';
import { enqueueJob, type JobHandler } from '../jobs.ts';
import { queueMail, sendMailNow } from '../mail.ts';
import { hitRateLimit } from '../rate-limit.ts';
import type { ServiceContext } from '../service-context.ts';
import { passwordResetEmail, signInLinkEmail } from './emails.ts';
import { afterFirstStep, type SignInOutcome } from './second-step.ts';
import { createSession, type NewSession, revokeUserSessions, type SessionMeta } from './sessions.ts';

/** Attempts per one-minute window, counted in the database so every process shares them. */
export const SIGN_IN_RATE_LIMITS = {
  /** password sign-ins and sign-ups */
  password: { perAddress: 20, perAccount: 5 },
  /** emails: sign-in links and password resets */
  mail: { perAddress: 10, perAccount: 3 },
} as const;

const SIGN_IN_LINK_MINUTES = 15;
const PASSWORD_RESET_MINUTES = 60;

async function limitAttempts(
  db: Executor,
  kind: keyof typeof SIGN_IN_RATE_LIMITS,
  opts: { ip: string | null; email: string | null; now: Date },
): Promise<void> {
  const { ip, email, now } = opts;
  const limits = SIGN_IN_RATE_LIMITS[kind];
  const hits = [
    ip ? await hitRateLimit(db, `sign_in:${kind}:ip:${ip}`, { limit: limits.perAddress, now }) : null,
    email
      ? await hitRateLimit(db, `sign_in:${kind}:email:${email}`, { limit: limits.perAccount, now })
      : null,
  ];
  const over = hits.find((h) => h?.limited);
  if (over) {
    throw new CoreError(
      'rate_limited',
      `Too many attempts. Wait ${over.resetSeconds} seconds, then try again.`,
      { retryAfterSeconds: over.resetSeconds },
    );
  }
}

const normalEmail = (email: string) => email.trim().toLowerCase();

let dummyHash: Promise<string> | null = null;
/** Verifying against this when the email is unknown keeps both answers equally slow. */
const dummy = () => {
  dummyHash ??= hashPassword('not anybody’s password');
  return dummyHash;
};

const WRONG = 'The email address or the password is wrong';

/**
 * Email + password (README, "Dashboard"). Wrong either way gets the same answer; attempts are
 * rate-limited. A user with a second step gets its challenge instead of a session (second-step.ts).
 */
export async function signInWithPassword(
  sc: ServiceContext,
  input: { email: string; password: string },
  meta: SessionMeta,
): Promise<SignInOutcome> {
  const { db } = sc;
  const now = sc.now();
  const email = normalEmail(input.email);
  await limitAttempts(db, 'password', { ip: meta.ip, email, now });
  const user = await findSignInUser(db, email);
  if (!user?.password_hash) {
    await verifyPassword(input.password, await dummy());
    throw new CoreError('unauthenticated', WRONG);
  }
  if (!(await verifyPassword(input.password, user.password_hash))) {
    throw new CoreError('unauthenticated', WRONG);
  }
  if (user.disabled_at || user.archived_at) {
    throw new CoreError('unauthenticated', 'This user can no longer sign in; ask an admin of the account');
  }
  if (passwordNeedsRehash(user.password_hash)) {
    await setUserPasswordHash(db, user.id, {
      passwordHash: await hashPassword(input.password),
      updatedAt: null,
    });
  }
  return afterFirstStep(db, user.id, { ...meta, now, firstFactor: 'password' });
}

async function issueToken(
  db: Executor,
  userId: number,
  opts: { purpose: SignInTokenPurpose; minutes: number; now: Date },
): Promise<string> {
  const token = randomToken(32);
  await insertSignInToken(db, {
    tokenHash: sha256Hex(token),
    userId,
    purpose: opts.purpose,
    now: opts.now,
    expiresAt: new Date(opts.now.getTime() + opts.minutes * 60_000),
  });
  return token;
}

/** The background job that emails a one-time link (sign-in or password reset). */
export const EMAIL_LINK_JOB = 'auth.email_link';

/**
 * Asks for a one-time link (sign-in or password reset) to be emailed. The answer never says whether
 * the address belongs to a user who may sign in, nor does its timing (issue 29): the request only
 * counts the attempt and queues a job, the same work for every address; the job decides whether
 * there is anyone to email.
 */
export async function requestEmailLink(
  sc: ServiceContext,
  input: { purpose: SignInTokenPurpose; email: string; next?: string | undefined },
  meta: SessionMeta,
): Promise<void> {
  const address = normalEmail(input.email);
  await limitAttempts(sc.db, 'mail', { ip: meta.ip, email: address, now: sc.now() });
  const payload: EmailLinkPayload = { purpose: input.purpose, email: address, next: input.next ?? null };
  await enqueueJob(sc.db, { kind: EMAIL_LINK_JOB, payload: { ...payload }, maxAttempts: 5 });
}

interface EmailLinkPayload {
  purpose: SignInTokenPurpose;
  email: string;
  next: string | null;
}

/**
 * The job behind requestEmailLink: when the address belongs to a user who may sign in, a token and
 * its email (sent at once, or by the mail job); otherwise nothing.
 */
export const emailLinkJob: JobHandler = async (ctx, raw) => {
  const { purpose, email, next } = raw as unknown as EmailLinkPayload;
  const user = await findSignInUser(ctx.db, email);
  if (!user || user.disabled_at || user.archived_at) return;
  const mailId = await ctx.db.transaction().execute(async (tx) => {
    const minutes = purpose === 'sign_in' ? SIGN_IN_LINK_MINUTES : PASSWORD_RESET_MINUTES;
    const token = await issueToken(tx, user.id, { purpose, minutes, now: ctx.now() });
    const path = purpose === 'sign_in' ? '/login/link' : '/reset-password';
    // Where the sign-in page was asked to return (the OAuth consent page, say) rides along.
    const query = purpose === 'sign_in' && next && next !== '/' ? `?next=${encodeURIComponent(next)}` : '';
    // The token travels in the fragment: browsers never send it to a server or in a Referer.
    const url = `${ctx.config.PUBLIC_URL}${path}${query}#token=${token}`;
    const mail =
      purpose === 'sign_in' ? signInLinkEmail({ url, minutes }) : passwordResetEmail({ url, minutes });
    return queueMail(tx, {
      kind: purpose === 'sign_in' ? 'sign_in_link' : 'password_reset',
      to: user.email,
      ...mail,
    });
  });
  // Sent now rather than at the mail job's turn: the person is waiting for it.
  await sendMailNow(ctx, [mailId]);
};

/** Uses a one-time token: valid once, until it expires. Returns its user. */
async function consumeToken(
  db: Executor,
  token: string,
  opts: { purpose: SignInTokenPurpose; now: Date },
): Promise<number> {
  const { purpose } = opts;
  const row = await useSignInToken(db, sha256Hex(token), opts);
  if (!row) {
    throw new CoreError(
      'invalid_request',
      purpose === 'sign_in'
        ? 'This sign-in link has expired or was already used. Ask for a new one.'
        : 'This password reset link has expired or was already used. Ask for a new one.',
    );
  }
  const user = await findUserStanding(db, row.user_id);
  if (!user || user.disabled_at || user.archived_at) {
    throw new CoreError('unauthenticated', 'This user can no longer sign in; ask an admin of the account');
  }
  return row.user_id;
}

export async function signInWithLink(
  sc: ServiceContext,
  token: string,
  meta: SessionMeta,
): Promise<SignInOutcome> {
  const now = sc.now();
  return sc.db.transaction().execute(async (tx) => {
    const userId = await consumeToken(tx, token, { purpose: 'sign_in', now });
    return afterFirstStep(tx, userId, { ...meta, now, firstFactor: 'link' });
  });
}

/**
 * Sets a new password from a reset link: every other session of the user ends. A user with a
 * second step still needs it to sign in: the link proves the mailbox, not the app.
 */
export async function resetPassword(
  sc: ServiceContext,
  input: { token: string; password: string },
  meta: SessionMeta,
): Promise<SignInOutcome> {
  const now = sc.now();
  const hash = await hashPassword(input.password);
  return sc.db.transaction().execute(async (tx) => {
    const userId = await consumeToken(tx, input.token, { purpose: 'password_reset', now });
    await setUserPasswordHash(tx, userId, { passwordHash: hash, updatedAt: now });
    await revokeUserSessions(tx, userId, { keepId: null, now });
    return afterFirstStep(tx, userId, { ...meta, now, firstFactor: 'password_reset' });
  });
}

/** Changes the signed-in user's password (the current one is asked when there is one); other sessions end. */
export async function changePassword(
  sc: ServiceContext,
  input: { userId: number; sessionId: number; current: string | undefined; password: string },
): Promise<{ signed_out_sessions: number }> {
  const now = sc.now();
  const passwordHash = await findUserPasswordHash(sc.db, input.userId);
  if (passwordHash === undefined) throw new CoreError('not_found', `User ${input.userId} was not found`);
  if (passwordHash && !(await verifyPassword(input.current ?? '', passwordHash))) {
    throw new CoreError('invalid_parameter', 'The current password is wrong');
  }
  const hash = await hashPassword(input.password);
  return sc.db.transaction().execute(async (tx) => {
    await setUserPasswordHash(tx, input.userId, { passwordHash: hash, updatedAt: now });
    const keepId = input.sessionId;
    return { signed_out_sessions: await revokeUserSessions(tx, input.userId, { keepId, now }) };
  });
}

/** Self-service sign-up: only when the operator turned it on (SIGNUP_ENABLED). */
export async function signUp(
  sc: ServiceContext,
  input: { email: string; password: string; name?: string | undefined; accountName?: string | undefined },
  meta: SessionMeta,
): Promise<NewSession> {
  const now = sc.now();
  if (!sc.config.SIGNUP_ENABLED) {
    throw new CoreError(
      'not_available',
      'Sign-up is turned off on this server; ask its operator for an account',
    );
  }
  await limitAttempts(sc.db, 'password', { ip: meta.ip, email: null, now });
  return sc.db.transaction().execute(async (tx) => {
    const { user } = await createAccount(
      tx,
      {
        email: input.email,
        name: input.name ?? null,
        password: input.password,
        accountName: input.accountName ?? null,
        credits: sc.config.SIGNUP_CREDITS,
      },
      now,
    );
    return createSession(tx, user.id, { ...meta, now });
  });
}
