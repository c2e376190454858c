import {
  expireOverdueRequests,
  jobHandlers,
  pruneIdempotencyKeys,
  pruneOAuthRecords,
  pruneRateLimitWindows,
  purgeMailSecrets,
  type Runtime,
  requeueStuckSealing,
  startWorker,
  type WorkerHandle,
} from '@esign/core';

/**
 * The background worker: durable jobs (mail, webhooks, sealing, expiry), woken on commit by the
 * jobs channel's NOTIFY, plus housekeeping.
 */
export function startBackgroundWorker(
  rt: Runtime,
  opts: { concurrency?: number; pollMs?: number } = {},
): WorkerHandle {
  const now = () => new Date();
  return startWorker(
    { db: rt.db, logger: rt.logger.child({ component: 'worker' }), config: rt.config, deps: rt.deps, now },
    jobHandlers,
    {
      concurrency: opts.concurrency ?? 2,
      pollMs: opts.pollMs ?? 500,
      // Wake on enqueueJob's NOTIFY (delivered on commit); the poll stays as the fallback.
      listenUrl: rt.url,
      periodic: [
        {
          every: 60_000,
          run: async () => {
            await pruneRateLimitWindows(rt.db, now());
            await pruneIdempotencyKeys(rt.db, now());
            // OAuth codes, tokens, consent interactions and connections past their expiry.
            await pruneOAuthRecords(rt.db, now());
            // Outbox bodies whose signing link or code no longer works, or that went out by SMTP.
            await purgeMailSecrets(rt.db, now());
          },
        },
        {
          // Completed requests whose sealing job was lost get a new one (core services/sealing/queue.ts).
          every: 5 * 60_000,
          run: async () => {
            const ids = await requeueStuckSealing(rt.db, now(), { olderThanMinutes: 15 });
            if (ids.length) rt.logger.warn({ requestIds: ids }, 'sealing re-enqueued for stuck requests');
          },
        },
        // Requests past expires_at become `expired` (reads also check, so none is shown open late).
        { every: 30_000, run: async () => void (await expireOverdueRequests(rt.db, now())) },
      ],
    },
  );
}
