import type { Executor } from '@esign/db';
import type { Actor } from '../../context.ts';
import { hashPassword, randomToken, sha256Hex, verifyPassword } from '../../crypto.ts';
import { CoreError } from '../../errors.ts';
import { hitRateLimit } from '../rate-limit.ts';

/**
 * Sign-in for the billing page (`purchase_url`) until the dashboard's own sign-in lands
 * (operations.md §5): email and password, a session row in `sessions` (the cookie holds a random
 * token, the row its SHA-256), a per-session CSRF token for the page's forms, revocable.
 */
export const BILLING_SESSION_TTL_MS = 12 * 3600 * 1000;
/** Failed and successful attempts per email address per minute. */
export const SIGN_IN_ATTEMPTS_PER_MINUTE = 10;

let dummyHash: Promise<string> | null = null;

export interface NewSession {
  token: string;
  csrf: string;
  expiresAt: Date;
}

export async function signInWithPassword(
  db: Executor,
  input: { email: string; password: string },
  now: Date,
): Promise<NewSession> {
  const email = input.email.trim().toLowerCase();
  const limit = await hitRateLimit(db, `sign-in:${email}`, SIGN_IN_ATTEMPTS_PER_MINUTE, now);
  if (limit.limited) {
    throw new CoreError('rate_limited', `Too many sign-in attempts; retry in ${limit.resetSeconds} s`, {
      retryAfterSeconds: limit.resetSeconds,
    });
  }
  const user = await db
    .selectFrom('users')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .select(['users.id', 'users.password_hash', 'accounts.archived_at'])
    .where((eb) => eb(eb.fn('lower', ['users.email']), '=', email))
    .executeTakeFirst();
  // The same work whether or not the user exists, so timing does not tell.
  dummyHash ??= hashPassword(randomToken(16));
  const ok = await verifyPassword(input.password, user?.password_hash ?? (await dummyHash));
  if (!user?.password_hash || !ok || user.archived_at) {
    throw new CoreError('unauthenticated', 'Email or password is incorrect');
  }
  const token = randomToken(32);
  const session = {
    id_hash: sha256Hex(token),
    user_id: user.id,
    csrf_token: randomToken(24),
    created_at: now,
    expires_at: new Date(now.getTime() + BILLING_SESSION_TTL_MS),
  };
  await db.insertInto('sessions').values(session).execute();
  return { token, csrf: session.csrf_token, expiresAt: session.expires_at };
}

/** The signed-in person behind a session cookie (live side of the account), or null. */
export async function sessionActor(
  db: Executor,
  token: string | undefined,
  now: Date,
): Promise<{ actor: Actor; csrf: string } | null> {
  if (!token || token.length > 100) return null;
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .select([
      'sessions.csrf_token',
      'users.id as user_id',
      'users.account_id',
      'users.email',
      'users.name',
      'users.role',
    ])
    .where('sessions.id_hash', '=', sha256Hex(token))
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', now)
    .where('accounts.archived_at', 'is', null)
    .executeTakeFirst();
  if (!row) return null;
  return {
    csrf: row.csrf_token,
    actor: {
      kind: 'session',
      accountId: row.account_id,
      environment: 'live',
      userId: row.user_id,
      userEmail: row.email,
      userName: row.name,
      userRole: row.role,
      apiKeyId: null,
      apiKey: null,
      oauthClientId: null,
      canWrite: row.role !== 'viewer',
    },
  };
}

export async function signOut(db: Executor, token: string | undefined, now: Date): Promise<void> {
  if (!token) return;
  await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('id_hash', '=', sha256Hex(token))
    .where('revoked_at', 'is', null)
    .execute();
}
