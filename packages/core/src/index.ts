export { type AppRouter, appRouter, createCaller } from './app-router.ts';
export * from './config.ts';
export * from './context.ts';
export * from './crypto.ts';
export * from './errors.ts';
export { jobHandlers } from './jobs.ts';
/** Parses the environment at process start; a bad value stops the process naming the variable. */
export { loadConfigOrExit } from './load-config.ts';
export * from './logger.ts';
export * from './runtime.ts';
export * from './services/accounts.ts';
export * from './services/api-keys.ts';
export * from './services/credits.ts';
export * from './services/dashboard/index.ts';
export { MAX_DOCUMENT_BYTES, MAX_DOCUMENTS } from './services/documents-input.ts';
export * from './services/events.ts';
export * from './services/field-values.ts';
export * from './services/file-links.ts';
export * from './services/idempotency.ts';
export * from './services/jobs.ts';
export * from './services/mail.ts';
export * from './services/rate-limit.ts';
export * from './services/request-model.ts';
export * from './services/sealing.ts';
export * from './services/secret.ts';
// Dashboard sign-in: sessions, one-time links, members (operations.md §5).
export * from './services/sessions/index.ts';
export * from './services/signature-requests.ts';
export * from './services/signing.ts';
export * from './services/storage.ts';
export * from './services/templates.ts';
export * from './services/verify.ts';
// Webhooks: importing the module installs the event fan-out (deliveries in the event's transaction).
export * from './services/webhooks.ts';
export { formatPath, issuesToCoreError, type McpMeta, type Meta, toCoreError } from './trpc.ts';
