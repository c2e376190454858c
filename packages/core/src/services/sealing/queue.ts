import type { Executor, Tx } from '@esign/db';
import {
  listStuckSealing,
  markSealingPending,
  markUnqueuedSealingPending,
  resetUnsealedToPending,
} from '@esign/db/queries/sealing';
import { enqueueJob, type JobKind } from '../jobs.ts';
import type { ServiceContext } from '../service-context.ts';

export const SEAL_JOB = 'request.seal' satisfies JobKind;
/** 5 s doubling (jobRetryDelayMs): the attempts span about 10 minutes before sealing is `failed`. */
const SEAL_MAX_ATTEMPTS = 8;

/**
 * Marks a just-completed request as waiting for its sealed documents and queues the job; call it
 * in the transaction of the last signature. Queueing twice while a job is live is a no-op.
 */
export async function queueSealing(tx: Tx, requestId: number, opts: { runAt?: Date } = {}) {
  await markSealingPending(tx, requestId);
  await enqueueSealJob(tx, requestId, opts.runAt);
}

async function enqueueSealJob(db: Executor, requestId: number, runAt?: Date) {
  await enqueueJob(db, {
    kind: SEAL_JOB,
    payload: { requestId },
    runAt,
    maxAttempts: SEAL_MAX_ATTEMPTS,
    uniqueKey: `${SEAL_JOB}:${requestId}`,
  });
}

/**
 * Periodic safety net: completed requests whose sealing is still pending (or was never queued)
 * after `olderThanMinutes`, with no queued or running seal job, get a new job. Returns their ids.
 */
export async function requeueStuckSealing(
  ctx: Pick<ServiceContext, 'db'>,
  now: Date,
  opts: { olderThanMinutes?: number; limit?: number } = {},
): Promise<number[]> {
  const cutoff = new Date(now.getTime() - (opts.olderThanMinutes ?? 15) * 60_000);
  const ids = await listStuckSealing(ctx.db, { cutoff, jobKind: SEAL_JOB, limit: opts.limit ?? 100 });
  for (const id of ids) {
    await ctx.db.transaction().execute(async (tx) => {
      await markUnqueuedSealingPending(tx, id);
      await enqueueSealJob(tx, id);
    });
  }
  return ids;
}

/** Operator action: a request whose sealing `failed` for good is put back to `pending` and queued. */
export async function retrySealing(ctx: Pick<ServiceContext, 'db'>, requestId: number): Promise<boolean> {
  return ctx.db.transaction().execute(async (tx) => {
    const reset = await resetUnsealedToPending(tx, requestId);
    if (reset !== undefined) await enqueueSealJob(tx, requestId);
    return reset !== undefined;
  });
}
