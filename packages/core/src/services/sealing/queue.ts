import type { Db, Executor } from '@esign/db';
import { sql } from 'kysely';
import { enqueueJob, type JobKind } from '../jobs.ts';

export const SEAL_JOB = 'request.seal' satisfies JobKind;
/** 5 s doubling (jobRetryDelayMs): the attempts span about 10 minutes before sealing is `failed`. */
export const SEAL_MAX_ATTEMPTS = 8;

/**
 * Marks a just-completed request as waiting for its sealed documents and queues the job; call it
 * in the transaction of the last signature. Queueing twice while a job is live is a no-op.
 */
export async function queueSealing(tx: Executor, requestId: number, opts: { runAt?: Date } = {}) {
  await tx
    .updateTable('signature_requests')
    .set({ sealing_status: 'pending', sealing_error: null })
    .where('id', '=', requestId)
    .execute();
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
  db: Db,
  now: Date,
  opts: { olderThanMinutes?: number; limit?: number } = {},
): Promise<number[]> {
  const cutoff = new Date(now.getTime() - (opts.olderThanMinutes ?? 15) * 60_000);
  const rows = await db
    .selectFrom('signature_requests as r')
    .select('r.id')
    .where('r.status', '=', 'completed')
    .where((eb) => eb.or([eb('r.sealing_status', 'is', null), eb('r.sealing_status', '=', 'pending')]))
    .where('r.completed_at', '<', cutoff)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('jobs as j')
            .select(sql`1`.as('one'))
            .where('j.kind', '=', SEAL_JOB)
            .where('j.status', 'in', ['queued', 'running'])
            .whereRef(sql`(j.payload->>'requestId')::int`, '=', 'r.id'),
        ),
      ),
    )
    .orderBy('r.completed_at')
    .limit(opts.limit ?? 100)
    .execute();
  for (const { id } of rows) {
    await db.transaction().execute(async (tx) => {
      await tx
        .updateTable('signature_requests')
        .set({ sealing_status: 'pending' })
        .where('id', '=', id)
        .where('sealing_status', 'is', null)
        .execute();
      await enqueueSealJob(tx, id);
    });
  }
  return rows.map((r) => r.id);
}

/** Operator action: a request whose sealing `failed` for good is put back to `pending` and queued. */
export async function retrySealing(db: Db, requestId: number): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    const row = await tx
      .updateTable('signature_requests')
      .set({ sealing_status: 'pending', sealing_error: null })
      .where('id', '=', requestId)
      .where('status', '=', 'completed')
      .where((eb) => eb.or([eb('sealing_status', 'is', null), eb('sealing_status', '!=', 'done')]))
      .returning('id')
      .executeTakeFirst();
    if (row) await enqueueSealJob(tx, requestId);
    return !!row;
  });
}
