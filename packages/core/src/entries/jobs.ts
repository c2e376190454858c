/** @esign/core/jobs: what apps/worker runs, the job queue and the periodic work. */
// biome-ignore-all assist/source/organizeImports: the exports stay in their commented groups

// The job queue: every job's handler and the loop that claims and runs them.
export { jobHandlers } from '../jobs.ts';
export { startWorker, type WorkerHandle } from '../services/worker.ts';

// Webhook deliveries, claimed in batches by their own loop.
export { WEBHOOK_DELIVER_JOB } from '../services/webhooks/options.ts';
export { startWebhookWorker } from '../services/webhooks/pump.ts';

// Periodic work: deadlines, stuck sealing, and pruning what has expired.
export { pruneIdempotencyKeys } from '../services/idempotency.ts';
export { purgeMailSecrets } from '../services/mail-secrets.ts';
export { pruneUnusedOAuthClients } from '../services/oauth/clients.ts';
export { pruneOAuthRecords } from '../services/oauth/store.ts';
export { pruneRateLimitWindows } from '../services/rate-limit.ts';
export { requeueStuckSealing } from '../services/sealing/queue.ts';
export { pruneSignInAttempts } from '../services/sessions/sso-rule.ts';
export { expireOverdueRequests } from '../services/signature-requests/lifecycle.ts';
