import type { Db, Environment, Permission, Scope, UserRole } from '@esign/db';
import type { Source } from '@esign/domain';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import type { CoreError } from './errors.ts';
import type { PaymentProvider } from './services/billing/providers.ts';
import type { IdempotencyClaim } from './services/idempotency.ts';
import { createFileStore, type FileStore } from './services/storage.ts';

/** Where a record came from; becomes its `source` column (@esign/domain `SOURCES`). */
export type { Source };

/** Who is acting: an API key, an OAuth grant (MCP only), or a signed-in dashboard user. */
export interface Actor {
  kind: 'api_key' | 'oauth' | 'session';
  accountId: number;
  environment: Environment;
  userId: number;
  userEmail: string;
  userName: string | null;
  userRole: UserRole;
  apiKeyId: number | null;
  apiKey: { id: number; name: string; permission: Permission; expiresAt: Date | null } | null;
  oauthClientId: string | null;
  /** `full` keys, `write` OAuth scope. */
  canWrite: boolean;
  /** Dashboard sessions only: the session's public id (marks "this session" in the list). */
  sessionId?: number | null;
  /**
   * Dashboard sessions only: the account requires a second step and this session was opened
   * without one, so it may only set one up (procedures with `duringEnrolment` meta; issue 45).
   */
  secondStepRequired?: boolean;
}

/**
 * What a browser-facing adapter lends core for the dashboard's sign-in procedures: the request's
 * Origin header, and writing or clearing the session cookie on the response.
 */
export interface WebSession {
  origin: string | null;
  setCookie(token: string, expiresAt: Date): void;
  clearCookie(): void;
  /** The request's Cookie header (the signing procedures read their email-code session from it). */
  cookieHeader?: string | null;
  /** Adds one Set-Cookie header to the response (signing.verifyCode sets the signing session). */
  addSetCookie?(value: string): void;
}

export type { Scope };

export const scopeOf = (actor: Actor): Scope => ({
  accountId: actor.accountId,
  environment: actor.environment,
});

/** Collaborators core needs from the process. */
export interface CoreDeps {
  storage: FileStore;
  /** Live checkouts' payment provider; unset: the one PAYMENT_PROVIDER names (billing/providers.ts). */
  payments?: PaymentProvider;
  /**
   * Documents one request streamed to disk (reference → temporary file, or what was wrong with a
   * base64 value), set by the REST adapter for that request only: its input names each file by
   * reference (see services/uploads.ts) instead of carrying it in base64.
   */
  uploads?: ReadonlyMap<string, import('./services/uploads.ts').UploadedFile>;
  /** The process's metrics (README, "Monitoring"); unset when METRICS_PORT is. */
  metrics?: import('./metrics/metrics.ts').Metrics;
  /** Test-only loosening of the outbound guard for document downloads (a loopback HTTPS server). */
  outbound?: {
    allowPrivate?: boolean;
    ca?: string;
    lookup?: import('@esign/webhooks').GuardedFetchOptions['lookup'];
  };
}

export function createCoreDeps(config: Config): CoreDeps {
  return { storage: createFileStore(config) };
}

export interface Ctx {
  db: Db;
  logger: Logger;
  config: Config;
  deps: CoreDeps;
  actor: Actor | null;
  source: Source;
  requestId: string;
  ip: string | null;
  userAgent: string | null;
  /** The browser's Accept-Language header (pages only): the last fallback of a signer's language. */
  acceptLanguage: string | null;
  now: () => Date;
  /** Set by the web adapter (sign-in procedures write the session cookie through it). */
  web: WebSession | null;
  /**
   * Why the request has no actor although it brought credentials (bad key, rate limited): public
   * procedures ignore it, actor procedures throw it (a stale credential must not break the
   * signing page, which needs none).
   */
  authFailure: CoreError | null;
  /**
   * The Idempotency-Key this request holds (REST, `Idempotency-Key` on an idempotent operation):
   * the work's transaction commits the key's outcome with it (services/idempotency.ts).
   */
  idempotency: IdempotencyClaim | null;
}

export interface CreateContextInput {
  db: Db;
  logger: Logger;
  config: Config;
  deps?: CoreDeps;
  actor?: Actor | null;
  source: Source;
  requestId?: string;
  ip?: string | null;
  userAgent?: string | null;
  acceptLanguage?: string | null;
  now?: () => Date;
  web?: WebSession | null;
  authFailure?: CoreError | null;
  idempotency?: IdempotencyClaim | null;
}

export function createContext(input: CreateContextInput): Ctx {
  const requestId = input.requestId ?? crypto.randomUUID();
  return {
    db: input.db,
    config: input.config,
    deps: input.deps ?? createCoreDeps(input.config),
    actor: input.actor ?? null,
    source: input.source,
    requestId,
    ip: input.ip ?? null,
    userAgent: input.userAgent ?? null,
    acceptLanguage: input.acceptLanguage ?? null,
    now: input.now ?? (() => new Date()),
    web: input.web ?? null,
    authFailure: input.authFailure ?? null,
    idempotency: input.idempotency ?? null,
    logger: input.logger.child({
      requestId,
      source: input.source,
      accountId: input.actor?.accountId,
      apiKeyId: input.actor?.apiKeyId ?? undefined,
    }),
  };
}
