import type { Executor } from '@esign/db';
import { findSealingState, listFailedSealingRows } from '@esign/db/queries/sealing';
import { CoreError, notFound } from '../errors.ts';
import { recordAudit } from './audit.ts';
import type { JobHandler } from './jobs.ts';

/**
 * Sealing that gave up, made visible and recoverable. The seal job (sealing.ts) retries with
 * back-off and, after its last attempt, marks the request `sealing_status = 'failed'`; then:
 * - `withSealingGiveUpReport` logs it at error level with the command that recovers it, and adds a
 *   `signature_request.sealing_failed` audit entry (shown in the audit trail once sealed);
 * - `listFailedSealing` is `esign sealing failed`; `esign sealing retry` checks the request with
 *   `assertSealingRetryable`, then calls sealing.ts's `retrySealing` (back to `pending`, a new job).
 */
const SEALING_FAILED_AUDIT = 'signature_request.sealing_failed';

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
  const request = await findSealingState(ctx.db, requestId);
  if (request?.sealing_status !== 'failed') return;
  await recordAudit(
    ctx.db,
    { accountId: request.account_id, environment: request.environment },
    {
      type: SEALING_FAILED_AUDIT,
      by: { kind: 'system' },
      signatureRequestId: request.id,
      data: { attempts, error: request.sealing_error },
      now: ctx.now(),
    },
  );
  ctx.logger.error(
    { requestId, accountId: request.account_id, attempts, sealingError: request.sealing_error },
    `sealing gave up after ${attempts} attempts: signature request ${requestId} has no signed documents; fix the cause, then run \`esign sealing retry --id ${requestId}\``,
  );
}

/** `esign sealing failed`: completed requests whose sealing gave up, oldest first. */
export async function listFailedSealing(db: Executor, opts: { limit?: number } = {}) {
  const limit = opts.limit ?? 100;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
    throw new CoreError('invalid_parameter', 'limit must be an integer from 1 to 1000');
  }
  const rows = await listFailedSealingRows(db, limit);
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
export async function assertSealingRetryable(db: Executor, requestId: number): Promise<void> {
  const row = await findSealingState(db, requestId);
  if (!row) throw notFound('Signature request', requestId);
  if (row.status !== 'completed')
    throw new CoreError('invalid_request', `Signature request ${requestId} is ${row.status}, not completed`);
  if (row.sealing_status === 'done')
    throw new CoreError('invalid_request', `Signature request ${requestId} is already sealed`);
}
