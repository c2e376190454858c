import type { Runtime } from '@esign/core';
import {
  expireOverdueRequests,
  jobHandlers,
  pruneIdempotencyKeys,
  pruneOAuthRecords,
  pruneRateLimitWindows,
  pruneSignInAttempts,
  pruneUnusedOAuthClients,
  purgeMailSecrets,
  requeueStuckSealing,
  startWebhookWorker,
  startWorker,
  WEBHOOK_DELIVER_JOB,
  type WorkerHandle,
} from '@esign/core/jobs';
import { closeOutboundConnections } from '@esign/webhooks';

/** Housekeeping every worker process runs besides jobs. */
function housekeeping(rt: Runtime, now: () => Date) {
  return [
    {
      every: 60_000,
      run: async () => {
        await pruneRateLimitWindows(rt.db, now());
        await pruneIdempotencyKeys(rt.db);
        // OAuth codes, tokens, consent interactions and connections past their expiry.
        await pruneOAuthRecords(rt.db, now());
        // Outbox bodies whose signing link or code no longer works, or that went out by SMTP.
        await rt.db.transaction().execute((tx) => purgeMailSecrets(tx, now()));
        // Sign-ins that can no longer complete (passkey requests, single sign-ons, second steps).
        await rt.db.transaction().execute((tx) => pruneSignInAttempts(tx, now()));
      },
    },
    {
      // Completed requests whose sealing job was lost get a new one (core services/sealing/queue.ts).
      every: 5 * 60_000,
      run: async () => {
        const ids = await requeueStuckSealing(rt, now(), { olderThanMinutes: 15 });
        if (ids.length) rt.logger.warn({ requestIds: ids }, 'sealing re-enqueued for stuck requests');
      },
    },
    // Registered OAuth clients with nothing stored for them for a day (docs/mcp.md).
    { every: 60 * 60_000, run: async () => void (await pruneUnusedOAuthClients(rt.db, now())) },
    // Requests past expires_at become `expired` (reads also check, so none is shown open late).
    { every: 30_000, run: async () => void (await expireOverdueRequests(rt, now())) },
  ];
}

/**
 * The background worker: durable jobs (mail, sealing, page images), woken on commit by the jobs
 * channel's NOTIFY, plus housekeeping; webhook deliveries run on slots of their own
 * (`WEBHOOK_CONCURRENCY`): they wait on the network, so many run at once without taking the slots
 * of CPU-heavy jobs.
 */
export function startBackgroundWorker(
  rt: Runtime,
  opts: { concurrency?: number; webhookConcurrency?: number; pollMs?: number } = {},
): WorkerHandle {
  const now = () => new Date();
  const ctx = {
    db: rt.db,
    logger: rt.logger.child({ component: 'worker' }),
    config: rt.config,
    deps: rt.deps,
    now,
  };
  const { [WEBHOOK_DELIVER_JOB]: deliver, ...others } = jobHandlers;
  const pollMs = opts.pollMs ?? 500;
  // Wake on enqueueJob's NOTIFY (delivered on commit); the poll stays as the fallback.
  const jobs = startWorker(ctx, others, {
    concurrency: opts.concurrency ?? 2,
    pollMs,
    listenUrl: rt.url,
    periodic: housekeeping(rt, now),
  });
  // Deliveries: claimed and recorded in batches (core services/webhooks/pump.ts).
  const webhooks = startWebhookWorker(ctx, {
    handler: deliver!,
    concurrency: opts.webhookConcurrency ?? rt.config.WEBHOOK_CONCURRENCY,
    pollMs,
    listenUrl: rt.url,
  });
  // Stopping starts at drain (no job is claimed from then on); stop() waits for the running ones.
  let stopped: Promise<void> | null = null;
  const stop = () =>
    (stopped ??= Promise.all([jobs.stop(), webhooks.stop()]).then(() => closeOutboundConnections()));
  return {
    drain: () => {
      stop().catch(() => {}); // stop()'s own caller sees its failure
    },
    stop,
  };
}
