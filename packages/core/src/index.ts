/**
 * @esign/core: what every adapter uses: the router, the context, authentication, errors, config,
 * the runtime and logger, procedure meta and the published limits. Smaller groups have their own
 * entries (package.json "exports"; README, "Architecture"): `@esign/core/jobs` (apps/worker),
 * `/operator` (apps/cli), `/oauth`, `/idempotency`, `/endpoints`, `/uploads`, `/schemas/*` (the
 * browser's zod contracts), `/exit-codes`, and `/testing` for tests only. Named exports only.
 */
// biome-ignore-all assist/source/organizeImports: the exports stay in their commented groups

// The router: every procedure, and calling one by its path (REST, MCP, /trpc, the dashboard).
export { type AppRouter, appRouter, callProcedure, createCaller } from './app-router.ts';

// A call's context: what the process lends core, and who is acting.
export { type Actor, type CoreDeps, createContext, createCoreDeps } from './context.ts';

// Authentication: API keys, dashboard sessions and cookies, OAuth on /mcp, the shared rate limit.
export {
  authenticateAndLimit,
  type AuthenticatedRequest,
  type AuthenticateOptions,
  CALLER_KINDS,
  type CallerKind,
  type Credentials,
  limitMoreCalls,
  presentedKind,
} from './authenticate.ts';
export { authenticateApiKey } from './services/api-keys.ts';
export { sessionClearCookie, sessionCookieName, sessionSetCookie } from './services/sessions/cookies.ts';
export { authenticateSession, isSameOrigin, type SessionAuth } from './services/sessions/sessions.ts';

// Errors: the spec's codes and statuses, and the one mapping of whatever was thrown to them.
export { CoreError, databaseUnavailable, ERROR_STATUS, type ErrorCode, errorStatus } from './errors.ts';
export { findUnstorableText, toCoreError } from './trpc.ts';

// Configuration, parsed once at start; a bad value stops the process naming the variable.
export { type Config, parseConfig } from './config.ts';
export { loadConfigOrExit } from './load-config.ts';
export { LISTEN_HOST } from './runtime.ts';

// The process: database, storage, metrics, logger, and a clean stop on a signal.
export { createLogger } from './logger.ts';
export type { Metrics } from './metrics/metrics.ts';
export { createRuntime, type Runtime, shutdownOnSignal, type StoppablePart } from './runtime.ts';

// Procedure meta: the one list adapters derive routes, tools and body limits from.
export { type BodyKind, type McpMeta, type Meta, procedureMeta, type RequestMeta } from './trpc.ts';

// Published limits and vocabulary (OpenAPI descriptions, the API reference, body limits).
export { MAX_TEMPLATE_FIELDS } from './contracts/templates.ts';
export { MAX_LOGO_BYTES } from './services/brands/logo.ts';
export { MAX_BULK_FILE_BYTES } from './services/bulk/spreadsheet-limits.ts';
export { MAX_DOCUMENT_BYTES, MAX_DOCUMENTS } from './services/documents-input.ts';
export { SUBSCRIBABLE_EVENT_TYPES } from './services/webhooks/url-rules.ts';

// Kept at the root with their positional signatures: black-box tests outside this repository call
// them (an earlier issue). In this repository apps/api, apps/cli and the tests import them from
// their own entries (`/idempotency`, `/operator`, `/testing`); `@public` tells knip they are meant.
export {
  /** @public */
  answerAsOperator,
} from './services/billing/answers.ts';
export {
  /** @public */
  settleCheckout,
} from './services/billing/settle-checkout.ts';
export {
  /** @public */
  completeIdempotent,
} from './services/idempotency.ts';
