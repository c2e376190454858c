import type { Executor } from '@esign/db';
import type { Actor } from './context.ts';
import { CoreError } from './errors.ts';
import { authenticateApiKey, authenticateApiKeyCounted } from './services/api-keys.ts';
import { authenticateOAuthToken } from './services/oauth/access-tokens.ts';
import {
  limitActor,
  type RateLimitResult,
  rateLimitError,
  rateLimitResult,
  rateLimitWindowStart,
} from './services/rate-limit.ts';
import { carriesSessionCookie } from './services/sessions/cookies.ts';
import { authenticateWebRequest } from './services/sessions/sessions.ts';

/**
 * "Who is calling", in one place for every adapter (REST, MCP, /trpc): adapters hand over the raw
 * header values, core decides which credential they are and resolves it to an Actor.
 */
export interface Credentials {
  /** The Authorization header (`Bearer svc_live_…` for an API key, any other bearer: OAuth). */
  authorization?: string | undefined;
  /** The Cookie header (the dashboard's session cookie). */
  cookie?: string | undefined;
  /** For a session cookie: changes (any method but GET/HEAD) need our Origin and the CSRF token. */
  method?: string | undefined;
  /** The `X-CSRF-Token` header. */
  csrfToken?: string | undefined;
  /** The `Origin` header. */
  origin?: string | undefined;
}

/**
 * The kinds of caller authenticate() resolves. Each is one entry here, one case of `presentedKind`
 * (how to recognize it in the credentials) and one case of `authenticate` (how to resolve it to
 * an Actor).
 */
export const CALLER_KINDS = ['api_key', 'oauth', 'session'] as const satisfies readonly Actor['kind'][];
export type CallerKind = (typeof CALLER_KINDS)[number];

export interface AuthenticateOptions {
  /** The kinds this endpoint accepts (REST: API keys only; MCP adds OAuth; /trpc adds sessions). */
  allow: readonly CallerKind[];
  /**
   * PUBLIC_URL: names the session cookie, is the only Origin a session may change things from, and
   * makes the MCP address OAuth tokens must be bound to.
   */
  publicUrl: string;
}

const LABEL: Record<CallerKind, string> = {
  api_key: 'an API key',
  oauth: 'an OAuth access token',
  session: 'a signed-in session',
};

/** API keys carry their prefix (Authentication rule 3); any other bearer token is an OAuth one. */
const API_KEY_BEARER = /^Bearer\s+svc_/i;

/** Which kind of credential a request carries, or null when it carries none. */
export function presentedKind(credentials: Credentials): CallerKind | null {
  const authorization = credentials.authorization?.trim();
  if (authorization) {
    return /^Bearer\s+\S/i.test(authorization) && !API_KEY_BEARER.test(authorization) ? 'oauth' : 'api_key';
  }
  if (carriesSessionCookie(credentials.cookie)) return 'session';
  return null;
}

/** Authentication rules 1, 3 and 6 of the spec: the Actor, or 401 unauthenticated / api_key_expired. */
export async function authenticate(
  db: Executor,
  credentials: Credentials,
  opts: AuthenticateOptions & { now: Date },
): Promise<Actor> {
  const { now } = opts;
  const kind = presentedKind(credentials);
  const accepted = opts.allow.map((k) => LABEL[k]).join(' or ');
  if (kind === null) {
    throw new CoreError(
      'unauthenticated',
      opts.allow.length === 1 && opts.allow[0] === 'api_key'
        ? 'Missing API key: send the header Authorization: Bearer <API_KEY>'
        : `Authentication required: send ${accepted}`,
    );
  }
  if (kind === 'oauth' && !opts.allow.includes('oauth') && opts.allow.includes('api_key')) {
    // Authentication rule 8: OAuth tokens work only on the MCP endpoint (and a mistyped key lands here).
    throw new CoreError(
      'unauthenticated',
      'Not an API key: expected Authorization: Bearer svc_live_... or svc_test_... (OAuth access tokens work only on the MCP endpoint)',
    );
  }
  if (!opts.allow.includes(kind))
    throw new CoreError('unauthenticated', `${LABEL[kind]} is not accepted here: send ${accepted}`);
  switch (kind) {
    case 'api_key':
      return authenticateApiKey(db, credentials.authorization, now);
    case 'oauth':
      return authenticateOAuthToken(db, credentials.authorization, { now, publicUrl: opts.publicUrl });
    case 'session':
      return authenticateSessionCookie(db, credentials, { now, publicUrl: opts.publicUrl });
    default:
      return kind satisfies never;
  }
}

export type AuthenticatedRequest =
  | { actor: Actor; error: null; headers: Record<string, string> }
  | { actor: null; error: CoreError; headers: Record<string, string> };

/**
 * The one authenticate → rate-limit → headers sequence: every authenticated response carries
 * `RateLimit-*` (and `Retry-After` when limited); REST, MCP and /trpc share the fixed window.
 * An API key is looked up and counted in one statement (one round trip per request). `calls`:
 * how many calls the request makes (default 1); each call of a batch counts against the limit.
 * Never throws a CoreError: the adapter renders `error` its own way (REST envelope, MCP 401, tRPC).
 */
export async function authenticateAndLimit(
  db: Executor,
  credentials: Credentials,
  opts: AuthenticateOptions & { now: Date; perMinute: number; calls?: number },
): Promise<AuthenticatedRequest> {
  const { now } = opts;
  const calls = opts.calls ?? 1;
  let actor: Actor;
  let limit: RateLimitResult;
  try {
    if (presentedKind(credentials) === 'api_key' && opts.allow.includes('api_key')) {
      const counted = await authenticateApiKeyCounted(db, credentials.authorization, {
        now,
        windowStart: rateLimitWindowStart(now),
        calls,
      });
      actor = counted.actor;
      limit = rateLimitResult(counted.count, opts.perMinute, now);
    } else {
      actor = await authenticate(db, credentials, opts);
      limit = await limitActor(db, actor, { limit: opts.perMinute, now, calls });
    }
  } catch (err) {
    if (err instanceof CoreError) return { actor: null, error: err, headers: {} };
    throw err;
  }
  return limitedResponse(actor, limit);
}

/**
 * For a request already counted once by authenticateAndLimit that turns out to carry `more` calls
 * (an MCP batch, known only once its body is read): counts them in the same window in one
 * statement; the RateLimit-* headers after them and, over the limit, the 429 for the request.
 */
export async function limitMoreCalls(
  db: Executor,
  actor: Actor,
  opts: { more: number; now: Date; perMinute: number },
): Promise<AuthenticatedRequest> {
  return limitedResponse(
    actor,
    await limitActor(db, actor, { limit: opts.perMinute, now: opts.now, calls: opts.more }),
  );
}

/** The RateLimit-* headers of a counted request and, over the limit, the 429 instead of the actor. */
function limitedResponse(actor: Actor, limit: RateLimitResult): AuthenticatedRequest {
  const headers: Record<string, string> = {
    'RateLimit-Limit': String(limit.limit),
    'RateLimit-Remaining': String(limit.remaining),
    'RateLimit-Reset': String(limit.resetSeconds),
  };
  const error = rateLimitError(limit);
  if (error) {
    headers['Retry-After'] = String(limit.resetSeconds);
    return { actor: null, error, headers };
  }
  return { actor, error: null, headers };
}

/** The dashboard's session cookie (README, "Dashboard"), CSRF and Origin checked for changes. */
async function authenticateSessionCookie(
  db: Executor,
  credentials: Credentials,
  opts: { now: Date; publicUrl: string },
): Promise<Actor> {
  const { now } = opts;
  const { actor, failure } = await authenticateWebRequest(
    db,
    { PUBLIC_URL: opts.publicUrl },
    {
      method: credentials.method ?? 'GET',
      cookie: credentials.cookie,
      csrfToken: credentials.csrfToken,
      origin: credentials.origin,
      now,
    },
  );
  if (failure) throw failure;
  if (!actor) throw new CoreError('unauthenticated', 'Your session has ended: sign in again');
  return actor;
}
