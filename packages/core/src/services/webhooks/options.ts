import type { JobRow } from '@esign/db';
import type { ResolveHost } from '@esign/webhooks';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { Metrics } from '../../metrics/metrics.ts';
import { type EnqueueOptions, JOB_LEASE_MS, type JobKind } from '../jobs.ts';

/** The job that wakes a worker up for one delivery attempt (the delivery row decides). */
export const WEBHOOK_DELIVER_JOB = 'webhook.deliver' satisfies JobKind;

/** What webhook services need besides the database. */
export interface WebhookOptions {
  config: Config;
  now: () => Date;
  logger?: Logger;
  /** Counts each attempt's outcome (esign_webhook_deliveries_total). */
  metrics?: Metrics;
  /** DNS resolution for the address checks (save and delivery); default the system resolver. */
  lookup?: ResolveHost;
  /** The `webhook.deliver` job making this attempt: finished in the statement recording the outcome. */
  job?: Pick<JobRow, 'id' | 'locked_by' | 'attempts'>;
}

/**
 * How long an attempt holds its delivery without a sign of life: renewed while the request runs
 * (holdLease), so a worker that dies mid-attempt frees it within this time.
 */
export function webhookLeaseMs(_config?: Pick<Config, 'WEBHOOK_TIMEOUT_SECONDS'>): number {
  return JOB_LEASE_MS;
}

/** The wake-up job of one attempt of a delivery. */
export function deliverJob(deliveryId: number, attempt: number, runAt: Date): EnqueueOptions {
  return {
    kind: WEBHOOK_DELIVER_JOB,
    payload: { deliveryId },
    runAt,
    // One wake-up per attempt: a second enqueue for the same attempt is a no-op.
    uniqueKey: `${WEBHOOK_DELIVER_JOB}:${deliveryId}:${attempt}`,
  };
}
