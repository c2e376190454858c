import { timingSafeEqual } from 'node:crypto';
import type { Environment, Executor } from '@esign/db';
import {
  findSessionByHash,
  findSessionCsrfToken,
  insertSession,
  listLiveSessions,
  revokeUserSession,
  revokeUserSessionsExcept,
  type SessionListRow,
  setSessionEnvironment as setSessionEnvironmentRow,
  touchSession,
} from '@esign/db/queries/sessions';
import type { Config } from '../../config.ts';
import type { Actor } from '../../context.ts';
import { randomToken, sha256Hex } from '../../crypto.ts';
import { CoreError } from '../../errors.ts';
import type { ServiceContext } from '../service-context.ts';
import { sessionTokenFromCookie } from './cookies.ts';

/** How long a dashboard session lasts without signing in again. */
const SESSION_TTL_MS = 30 * 24 * 3600_000;
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
  /** How the session is opened: `password` (the default), `password+totp`, `link`, ... */
  method?: string;
}

/** Opens a session for a user (after a password, a sign-in link, a reset or an accepted invitation). */
export async function createSession(
  db: Executor,
  userId: number,
  { now, ...meta }: SessionMeta & { now: Date },
): Promise<NewSession> {
  const token = randomToken(32);
  const csrfToken = randomToken(32);
  const expiresAt = new Date(now.getTime() + SESSION_TTL_MS);
  const row = await insertSession(db, {
    idHash: sha256Hex(token),
    userId,
    csrfToken,
    environment: meta.environment ?? 'live',
    ip: meta.ip,
    userAgent: meta.userAgent?.slice(0, 500) ?? null,
    now,
    expiresAt,
    method: meta.method ?? 'password',
  });
  return { token, id: row.id, csrfToken, expiresAt };
}

/**
 * Whether a session's method includes a second step: `password+totp`, `link+recovery_code`,
 * `password+passkey`, ...; a passkey alone (`passkey`: the device and its user verification) and
 * single sign-on (`sso`: the company's identity provider answers for its own second step) count
 * as one too.
 */
const methodHasSecondStep = (method: string) =>
  method.includes('+') || method === 'passkey' || method === 'sso';

/** The signed-in user of a dashboard session, as the session procedures know them. */
export interface SessionActor {
  userId: number;
  sessionId: number;
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
  {
    cookieHeader,
    now,
    allowEnrolment = false,
  }: { cookieHeader: string | undefined; now: Date; allowEnrolment?: boolean },
): Promise<SessionAuth | null> {
  const token = sessionTokenFromCookie(config, cookieHeader);
  if (!token) return null;
  const row = await findSessionByHash(db, sha256Hex(token));
  if (!row || row.revoked_at || row.expires_at <= now || row.disabled_at || row.archived_at) return null;
  // Issue 45: the account requires a second step and this session was opened without one. Only
  // the dashboard's tRPC adapter (`allowEnrolment`) sees it, as an actor that may only set one up;
  // to everything else (the OAuth consent page, ...) it is no session at all.
  // Issue 45 item 4: an account that requires single sign-on holds every other session (but the
  // break-glass admin's) to it, however and whenever it was opened.
  if (row.sso_required && row.method !== 'sso' && row.break_glass_user_id !== row.user_id) return null;
  const secondStepRequired = row.require_second_step && !methodHasSecondStep(row.method);
  if (secondStepRequired && !allowEnrolment) return null;
  if (!row.last_seen_at || now.getTime() - row.last_seen_at.getTime() > SEEN_EVERY_MS) {
    await touchSession(db, row.id_hash, now);
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
      ...(secondStepRequired ? { secondStepRequired: true } : {}),
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
  { now, ...req }: WebRequest & { now: Date },
): Promise<{ actor: Actor | null; failure: CoreError | null }> {
  const auth = await authenticateSession(db, config, { cookieHeader: req.cookie, now, allowEnrolment: true });
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
  const token = await findSessionCsrfToken(db, sessionId);
  if (token === undefined) throw new CoreError('not_found', `Session ${sessionId} was not found`);
  return token;
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
  /** How it was opened: `password`, `password+totp`, `password+recovery_code`, `link`, `link+totp`, ... */
  method: string;
}

/** The user's live sessions, most recently used first. */
export async function listSessions(sc: ServiceContext, actor: SessionActor): Promise<SessionDto[]> {
  const rows = await listLiveSessions(sc.db, actor.userId, sc.now());
  return rows.map((r) => toSessionDto(r, actor.sessionId));
}

const toSessionDto = (r: SessionListRow, currentId: number): SessionDto => ({
  id: r.id,
  current: r.id === currentId,
  environment: r.environment,
  ip: r.ip,
  user_agent: r.user_agent,
  created_at: r.created_at.toISOString(),
  last_seen_at: r.last_seen_at?.toISOString() ?? null,
  expires_at: r.expires_at.toISOString(),
  method: r.method,
});

/** Signs one of the user's sessions out; another user's session id is not found. */
export async function revokeSession(sc: ServiceContext, actor: SessionActor, id: number): Promise<void> {
  if (!(await revokeUserSession(sc.db, actor.userId, { id, now: sc.now() }))) {
    throw new CoreError('not_found', `Session ${id} was not found`);
  }
}

/** "Sign out other sessions": every live session of the user but `keepId` (null: all of them). */
export async function revokeUserSessions(
  db: Executor,
  userId: number,
  opts: { keepId: number | null; now: Date },
): Promise<number> {
  return revokeUserSessionsExcept(db, userId, opts);
}

/** The live/test switch: the session looks at the other side of the account from now on. */
export async function setSessionEnvironment(
  db: Executor,
  sessionId: number,
  environment: Environment,
): Promise<void> {
  await setSessionEnvironmentRow(db, sessionId, environment);
}
