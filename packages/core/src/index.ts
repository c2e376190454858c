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
export * from './services/idempotency.ts';
export * from './services/jobs.ts';
export * from './services/mail.ts';
export * from './services/rate-limit.ts';
export { formatPath, issuesToCoreError, type McpMeta, type Meta, toCoreError } from './trpc.ts';
export * from './services/events.ts';
