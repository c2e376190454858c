import type { Executor } from '../connection.ts';
import type { Environment, UserRole } from '../schema.ts';

// Dashboard sessions (`sessions`, stored by the SHA-256 of the cookie value) and the one-time
// sign-in and password-reset links (`sign_in_tokens`, by the SHA-256 of the token). Hashing is the
// caller's: these queries only see hashes.

export async function insertSession(
  db: Executor,
  values: {
    idHash: string;
    userId: number;
    csrfToken: string;
    environment: Environment;
    ip: string | null;
    userAgent: string | null;
    now: Date;
    expiresAt: Date;
    /** How it was opened (`password`, `password+totp`, ...). */
    method: string;
  },
): Promise<{ id: number }> {
  return db
    .insertInto('sessions')
    .values({
      id_hash: values.idHash,
      user_id: values.userId,
      csrf_token: values.csrfToken,
      created_at: values.now,
      expires_at: values.expiresAt,
      environment: values.environment,
      ip: values.ip,
      user_agent: values.userAgent,
      last_seen_at: values.now,
      method: values.method,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

/** A session with its user and account, as authentication reads it. */
export interface SessionAuthRow {
  id: number;
  id_hash: string;
  csrf_token: string;
  environment: Environment;
  expires_at: Date;
  revoked_at: Date | null;
  last_seen_at: Date | null;
  user_id: number;
  account_id: number;
  email: string;
  name: string | null;
  role: UserRole;
  disabled_at: Date | null;
  archived_at: Date | null;
  method: string;
  require_second_step: boolean;
  /** The account requires single sign-on (issue 45 item 4) of everyone but `break_glass_user_id`. */
  sso_required: boolean | null;
  break_glass_user_id: number | null;
}

export async function findSessionByHash(db: Executor, idHash: string): Promise<SessionAuthRow | undefined> {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .leftJoin('account_sso', 'account_sso.account_id', 'users.account_id')
    .select([
      'sessions.id',
      'sessions.id_hash',
      'sessions.csrf_token',
      'sessions.environment',
      'sessions.expires_at',
      'sessions.revoked_at',
      'sessions.last_seen_at',
      'users.id as user_id',
      'users.account_id',
      'users.email',
      'users.name',
      'users.role',
      'users.disabled_at',
      'accounts.archived_at',
      'sessions.method',
      'accounts.require_second_step',
      'account_sso.required as sso_required',
      'account_sso.break_glass_user_id',
    ])
    .where('sessions.id_hash', '=', idHash)
    .executeTakeFirst();
}

export async function touchSession(db: Executor, idHash: string, now: Date): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: now }).where('id_hash', '=', idHash).execute();
}

export async function findSessionCsrfToken(db: Executor, id: number): Promise<string | undefined> {
  const row = await db.selectFrom('sessions').select('csrf_token').where('id', '=', id).executeTakeFirst();
  return row?.csrf_token;
}

export interface SessionListRow {
  id: number;
  environment: Environment;
  ip: string | null;
  user_agent: string | null;
  created_at: Date;
  last_seen_at: Date | null;
  expires_at: Date;
  method: string;
}

/** The user's sessions neither revoked nor expired at `now`, most recently used first. */
export async function listLiveSessions(db: Executor, userId: number, now: Date): Promise<SessionListRow[]> {
  return db
    .selectFrom('sessions')
    .select(['id', 'environment', 'ip', 'user_agent', 'created_at', 'last_seen_at', 'expires_at', 'method'])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('last_seen_at', (ob) => ob.desc().nullsLast())
    .orderBy('id', 'desc')
    .execute();
}

/** Revokes one session of the user (an earlier revocation time is kept); false when they have none by that id. */
export async function revokeUserSession(
  db: Executor,
  userId: number,
  opts: { id: number; now: Date },
): Promise<boolean> {
  const row = await db
    .updateTable('sessions')
    .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(opts.now)) }))
    .where('id', '=', opts.id)
    .where('user_id', '=', userId)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Revokes the user's unrevoked sessions but `keepId` (null: all); returns how many. */
export async function revokeUserSessionsExcept(
  db: Executor,
  userId: number,
  opts: { keepId: number | null; now: Date },
): Promise<number> {
  let q = db
    .updateTable('sessions')
    .set({ revoked_at: opts.now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (opts.keepId !== null) q = q.where('id', '!=', opts.keepId);
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function setSessionEnvironment(
  db: Executor,
  id: number,
  environment: Environment,
): Promise<void> {
  await db.updateTable('sessions').set({ environment }).where('id', '=', id).execute();
}

export type SignInTokenPurpose = 'sign_in' | 'password_reset';

export async function insertSignInToken(
  db: Executor,
  values: { tokenHash: string; userId: number; purpose: SignInTokenPurpose; now: Date; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('sign_in_tokens')
    .values({
      token_hash: values.tokenHash,
      user_id: values.userId,
      purpose: values.purpose,
      created_at: values.now,
      expires_at: values.expiresAt,
    })
    .execute();
}

/**
 * Marks a one-time token used if it is unused and unexpired at `now` (atomic: of two concurrent
 * uses one gets the user); returns its user, or undefined.
 */
export async function useSignInToken(
  db: Executor,
  tokenHash: string,
  opts: { purpose: SignInTokenPurpose; now: Date },
): Promise<{ user_id: number } | undefined> {
  return db
    .updateTable('sign_in_tokens')
    .set({ used_at: opts.now })
    .where('token_hash', '=', tokenHash)
    .where('purpose', '=', opts.purpose)
    .where('used_at', 'is', null)
    .where('expires_at', '>', opts.now)
    .returning('user_id')
    .executeTakeFirst();
}

/**
 * Marks a session opened without a second step as having one now (its user just set one up):
 * `password` becomes `password+totp`. A session that already had one keeps its method.
 */
export async function addSessionSecondStep(db: Executor, id: number, step: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set((eb) => ({ method: eb('method', '||', `+${step}`) }))
    .where('id', '=', id)
    .where('method', 'not like', '%+%')
    .execute();
}

export async function setAccountSecondStepRule(
  db: Executor,
  accountId: number,
  required: boolean,
): Promise<void> {
  await db
    .updateTable('accounts')
    .set({ require_second_step: required })
    .where('id', '=', accountId)
    .execute();
}

export async function findAccountSecondStepRule(db: Executor, accountId: number): Promise<boolean> {
  const row = await db
    .selectFrom('accounts')
    .select('require_second_step')
    .where('id', '=', accountId)
    .executeTakeFirst();
  return row?.require_second_step ?? false;
}
