export { type AppRouter, appRouter, callProcedure, createCaller } from './app-router.ts';
export * from './authenticate.ts';
export * from './config.ts';
export * from './context.ts';
export { MAX_ID } from './contracts/ids.ts';
export * from './crypto.ts';
export * from './errors.ts';
/** Parses the environment at process start; a bad value stops the process naming the variable. */
export { CONFIG_ERROR_EXIT_CODE } from './exit-codes.ts';
export { replayCommittedOutcome } from './idempotent-replay.ts';
export { jobHandlers } from './jobs.ts';
export { loadConfigOrExit } from './load-config.ts';
export * from './logger.ts';
// Prometheus metrics (README, "Monitoring"): created by createRuntime when METRICS_PORT is set.
export * from './metrics/metrics.ts';
export { METRICS_PATH, serveMetrics } from './metrics/server.ts';
export * from './runtime.ts';
export * from './services/accounts.ts';
export * from './services/api-keys.ts';
export * from './services/audit.ts';
export * from './services/billing/index.ts';
export { MAX_LOGO_BYTES } from './services/brands/logo.ts';
export * from './services/bulk/index.ts';
export * from './services/credits.ts';
export * from './services/dashboard/index.ts';
export { MAX_DOCUMENT_BYTES, MAX_DOCUMENTS } from './services/documents-input.ts';
export * from './services/embed/index.ts';
export * from './services/event-data.ts';
export * from './services/events.ts';
export * from './services/field-values.ts';
export * from './services/file-links.ts';
export * from './services/idempotency.ts';
export * from './services/images.ts';
export * from './services/jobs.ts';
export * from './services/links/index.ts';
export * from './services/mail.ts';
export * from './services/mail-secrets.ts';
// MCP OAuth (Authentication rule 8): the authorization server's storage, token check, connected apps.
export * from './services/oauth/index.ts';
export {
  type MessageChannel,
  readMessageBacklog,
  retryUndeliverableMessages,
} from './services/outbox-retry.ts';
export * from './services/rate-limit.ts';
export * from './services/request-model.ts';
export * from './services/scoped.ts';
export * from './services/sealing/index.ts';
export * from './services/sealing-failures.ts';
export * from './services/secret.ts';
export * from './services/service-context.ts';
// Dashboard sign-in: sessions, one-time links, members (README, "Dashboard").
export * from './services/sessions/index.ts';
export { resolveShortFileLink, shortFileLink } from './services/short-file-links.ts';
export * from './services/signature-requests/index.ts';
export * from './services/signing/index.ts';
export * from './services/sms/index.ts';
export * from './services/storage.ts';
export * from './services/templates/index.ts';
export * from './services/uploads.ts';
export * from './services/verify.ts';
export * from './services/webhooks/index.ts';
export * from './services/worker.ts';
export {
  type BodyKind,
  findUnstorableText,
  issuesToCoreError,
  type McpMeta,
  type Meta,
  type ProcedureInfo,
  procedureMeta,
  type RequestMeta,
  toCoreError,
} from './trpc.ts';
