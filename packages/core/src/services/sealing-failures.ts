import { type Db, json } from '@esign/db';
import { CoreError, notFound } from '../errors.ts';
import type { JobHandler } from './jobs.ts';

/**
 * Sealing that gave up, made visible and recoverable. The seal job (sealing.ts) retries with
 * back-off and, after its last attempt, marks the request `sealing_status = 'failed'`; then:
 * - `withSealingGiveUpReport` logs it at error level with the command that recovers it, and adds a
 *   `signature_request.sealing_failed` audit entry (shown in the audit trail once sealed);
 * - `listFailedSealing` is `esign sealing failed`; `esign sealing retry` checks the request with
 *   `assertSealingRetryable`, then calls sealing.ts's `retrySealing` (back to `pending`, a new job).
 */
export const SEALING_FAILED_AUDIT = 'signature_request.sealing_failed';

export function withSealingGiveUpReport(handler: JobHandler): JobHandler {
  return async (ctx, payload, job) => {
    try {
      await handler(ctx, payload, job);
    } catch (err) {
      if (job.attempts >= job.max_attempts) {
        // The job's own failure is what matters: a report that cannot be written is only logged.
        await reportGiveUp(ctx, Number(payload.requestId), job.attempts).catch((reportErr) =>
          ctx.logger.error({ err: reportErr, requestId: payload.requestId }, 'sealing give-up report failed'),
        );
      }
      throw err;
    }
  };
}

async function reportGiveUp(ctx: Parameters<JobHandler>[0], requestId: number, attempts: number) {
  const request = await ctx.db
    .selectFrom('signature_requests')
    .select(['id', 'account_id', 'environment', 'sealing_status', 'sealing_error'])
    .where('id', '=', requestId)
    .executeTakeFirst();
  if (request?.sealing_status !== 'failed') return;
  await ctx.db
    .insertInto('audit_events')
    .values({
      account_id: request.account_id,
      environment: request.environment,
      signature_request_id: request.id,
      type: SEALING_FAILED_AUDIT,
      actor_type: 'system',
      data: json({ attempts, error: request.sealing_error }),
      created_at: ctx.now(),
    })
    .execute();
  ctx.logger.error(
    { requestId, accountId: request.account_id, attempts, sealingError: request.sealing_error },
    `sealing gave up after ${attempts} attempts: signature request ${requestId} has no signed documents; fix the cause, then run \`esign sealing retry --id ${requestId}\``,
  );
}

/** `esign sealing failed`: completed requests whose sealing gave up, oldest first. */
export async function listFailedSealing(db: Db, opts: { limit?: number } = {}) {
  const limit = opts.limit ?? 100;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    throw new CoreError('invalid_parameter', 'limit must be an integer from 1 to 1000');
  }
  const rows = await db
    .selectFrom('signature_requests')
    .select(['id', 'account_id', 'environment', 'template_name', 'completed_at', 'sealing_error'])
    .where('status', '=', 'completed')
    .where('sealing_status', '=', 'failed')
    .orderBy('completed_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return {
    data: rows.map((r) => ({
      id: r.id,
      account_id: r.account_id,
      environment: r.environment,
      title: r.template_name,
      completed_at: r.completed_at?.toISOString() ?? null,
      sealing_error: r.sealing_error,
    })),
  };
}

/** Why `esign sealing retry --id N` cannot queue sealing: unknown (not_found), not completed, or already sealed. */
export async function assertSealingRetryable(db: Db, requestId: number): Promise<void> {
  const row = await db
    .selectFrom('signature_requests')
    .select(['status', 'sealing_status'])
    .where('id', '=', requestId)
    .executeTakeFirst();
  if (!row) throw notFound('Signature request', requestId);
  if (row.status !== 'completed')
    throw new CoreError('invalid_request', `Signature request ${requestId} is ${row.status}, not completed`);
  if (row.sealing_status === 'done')
    throw new CoreError('invalid_request', `Signature request ${requestId} is already sealed`);
}
