import { timingSafeEqual } from 'node:crypto';
import type { Environment, Executor } from '@esign/db';
import type { Config } from '../../config.ts';
import type { Actor } from '../../context.ts';
import { randomToken, sha256Hex } from '../../crypto.ts';
import { CoreError } from '../../errors.ts';
import { sessionTokenFromCookie } from './cookies.ts';

/** How long a dashboard session lasts without signing in again. */
export const SESSION_TTL_MS = 30 * 24 * 3600_000;
/** last_seen_at is written at most this often per session. */
const SEEN_EVERY_MS = 60_000;

export interface NewSession {
  /** The cookie value: shown to the browser once, stored only as its SHA-256. */
  token: string;
  id: number;
  csrfToken: string;
  expiresAt: Date;
}

export interface SessionMeta {
  ip: string | null;
  userAgent: string | null;
  environment?: Environment;
}

/** Opens a session for a user (after a password, a sign-in link, a reset or an accepted invitation). */
export async function createSession(
  db: Executor,
  userId: number,
  meta: SessionMeta,
  now: Date,
): Promise<NewSession> {
  const token = randomToken(32);
  const csrfToken = randomToken(32);
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  const row = await db
    .insertInto('sessions')
    .values({
      id_hash: sha256Hex(token),
      user_id: userId,
      csrf_token: csrfToken,
      created_at: now,
      expires_at: expiresAt,
      environment: meta.environment ?? 'live',
      ip: meta.ip,
      user_agent: meta.userAgent?.slice(0, 500) ?? null,
      last_seen_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { token, id: row.id, csrfToken, expiresAt };
}

export interface SessionAuth {
  actor: Actor & { kind: 'session'; sessionId: number };
  csrfToken: string;
}

/**
 * The signed-in user behind a Cookie header, or null when it carries no live session (none,
 * unknown, expired, revoked, a removed member, an archived account). Works in any process: the
 * session is a database row.
 */
export async function authenticateSession(
  db: Executor,
  config: Pick<Config, 'PUBLIC_URL'>,
  cookieHeader: string | undefined,
  now: Date,
): Promise<SessionAuth | null> {
  const token = sessionTokenFromCookie(config, cookieHeader);
  if (!token) return null;
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
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
    ])
    .where('sessions.id_hash', '=', sha256Hex(token))
    .executeTakeFirst();
  if (!row || row.revoked_at || row.expires_at <= now || row.disabled_at || row.archived_at) return null;
  if (!row.last_seen_at || now.getTime() - row.last_seen_at.getTime() > SEEN_EVERY_MS) {
    await db.updateTable('sessions').set({ last_seen_at: now }).where('id_hash', '=', row.id_hash).execute();
  }
  return {
    csrfToken: row.csrf_token,
    actor: {
      kind: 'session',
      accountId: row.account_id,
      environment: row.environment,
      userId: row.user_id,
      userEmail: row.email,
      userName: row.name,
      userRole: row.role,
      apiKeyId: null,
      apiKey: null,
      oauthClientId: null,
      canWrite: true,
      sessionId: row.id,
    },
  };
}

export interface WebRequest {
  method: string;
  cookie: string | undefined;
  /** The `X-CSRF-Token` header. */
  csrfToken: string | undefined;
  /** The `Origin` header. */
  origin: string | undefined;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Authenticates a browser request to /trpc by its session cookie. A state-changing request (any
 * method but GET/HEAD) must also come from our own origin and carry the session's CSRF token in
 * `X-CSRF-Token` (double submit: a page of another site can neither read the token nor set the
 * header without a CORS preflight we never answer). A request that fails either check gets no
 * actor and a `failure` that actor-needing procedures report as 403 forbidden; procedures that need
 * no actor (the signing page's) still work.
 */
export async function authenticateWebRequest(
  db: Executor,
  config: Pick<Config, 'PUBLIC_URL'>,
  req: WebRequest,
  now: Date,
): Promise<{ actor: Actor | null; failure: CoreError | null }> {
  const auth = await authenticateSession(db, config, req.cookie, now);
  if (!auth) return { actor: null, failure: null };
  if (SAFE_METHODS.has(req.method.toUpperCase())) return { actor: auth.actor, failure: null };
  const failure = csrfFailure(config, auth.csrfToken, req);
  return failure ? { actor: null, failure } : { actor: auth.actor, failure: null };
}

export function isSameOrigin(config: Pick<Config, 'PUBLIC_URL'>, origin: string | null | undefined): boolean {
  return !origin || origin === new URL(config.PUBLIC_URL).origin;
}

function csrfFailure(
  config: Pick<Config, 'PUBLIC_URL'>,
  expected: string,
  req: WebRequest,
): CoreError | null {
  if (!isSameOrigin(config, req.origin)) {
    return new CoreError('forbidden', 'This request came from another site and was refused');
  }
  const given = Buffer.from(req.csrfToken ?? '');
  const want = Buffer.from(expected);
  if (given.length !== want.length || !timingSafeEqual(given, want)) {
    return new CoreError(
      'forbidden',
      'The security token of this page is missing or out of date; reload the page and try again',
    );
  }
  return null;
}

/** The session's CSRF token, for the page to send back on changes. */
export async function sessionCsrfToken(db: Executor, sessionId: number): Promise<string> {
  const row = await db
    .selectFrom('sessions')
    .select('csrf_token')
    .where('id', '=', sessionId)
    .executeTakeFirstOrThrow();
  return row.csrf_token;
}

export interface SessionDto {
  id: number;
  current: boolean;
  environment: Environment;
  ip: string | null;
  user_agent: string | null;
  created_at: string;
  last_seen_at: string | null;
  expires_at: string;
}

/** The user's live sessions, most recently used first. */
export async function listSessions(
  db: Executor,
  userId: number,
  currentId: number,
  now: Date,
): Promise<SessionDto[]> {
  const rows = await db
    .selectFrom('sessions')
    .select(['id', 'environment', 'ip', 'user_agent', 'created_at', 'last_seen_at', 'expires_at'])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('last_seen_at', (ob) => ob.desc().nullsLast())
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    current: r.id === currentId,
    environment: r.environment,
    ip: r.ip,
    user_agent: r.user_agent,
    created_at: r.created_at.toISOString(),
    last_seen_at: r.last_seen_at?.toISOString() ?? null,
    expires_at: r.expires_at.toISOString(),
  }));
}

/** Signs one of the user's sessions out; another user's session id is not found. */
export async function revokeSession(db: Executor, userId: number, id: number, now: Date): Promise<void> {
  const row = await db
    .updateTable('sessions')
    .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(now)) }))
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returning('id')
    .executeTakeFirst();
  if (!row) throw new CoreError('not_found', `Session ${id} was not found`);
}

/** "Sign out other sessions": every live session of the user but `keepId` (null: all of them). */
export async function revokeUserSessions(
  db: Executor,
  userId: number,
  keepId: number | null,
  now: Date,
): Promise<number> {
  let q = db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (keepId !== null) q = q.where('id', '!=', keepId);
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The live/test switch: the session looks at the other side of the account from now on. */
export async function setSessionEnvironment(
  db: Executor,
  sessionId: number,
  environment: Environment,
): Promise<void> {
  await db.updateTable('sessions').set({ environment }).where('id', '=', sessionId).execute();
}
