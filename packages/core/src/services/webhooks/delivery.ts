import type { Db, Executor } from '@esign/db';
import { insertDelivery, renewDeliveryLease } from '@esign/db/queries/webhook-deliveries';
import { findLastSentEventData } from '@esign/db/queries/webhook-events';
import {
  buildDeliveryRequest,
  type DeliveryAttemptResult,
  deliverWebhook,
  nextRetryDelayForEvent,
  type ResolveHost,
} from '@esign/webhooks';
import type { Config } from '../../config.ts';
import type { Scope } from '../../context.ts';
import { CoreError } from '../../errors.ts';
import { eventDataBuilder } from '../event-data.ts';
import { recordEvent } from '../events.ts';
import { enqueueJob, holdLease, type JobHandler } from '../jobs.ts';
import type { ServiceContext } from '../service-context.ts';
import { type OutcomeRow, recordOutcomes } from './batch.ts';
import { type ClaimedDelivery, claimDelivery } from './claim.ts';
import type { WebhookDeliveryDto } from './dto.ts';
import { findEndpoint } from './endpoints.ts';
import { deliverJob, WEBHOOK_DELIVER_JOB, type WebhookOptions, webhookLeaseMs } from './options.ts';
import { getWebhookDelivery } from './records.ts';
import { openEndpointSecret } from './secret-box.ts';

// One attempt of a delivery: claim it, build `data` now, sign, POST through the outbound guard,
// record the outcome, and queue the next attempt on the webhook back-off.

/**
 * `data` at delivery time: the object type's builder's view of the object now (event-data.ts).
 * When the object is gone (the builder says not_found) or its type has no builder, the last data
 * sent for this object, or failing that a reference `{ object, id }`.
 */
async function eventData(db: Db, d: ClaimedDelivery, config: Config, now: Date): Promise<BuiltData> {
  const builder = eventDataBuilder(d.objectType);
  if (builder) {
    try {
      const data = await builder(db, d.scope, { id: d.objectId, config, now });
      return { data: data === undefined ? null : data, fresh: true };
    } catch (err) {
      if (!(err instanceof CoreError && err.code === 'not_found')) throw err;
    }
  }
  return lastSentData(db, d);
}

/** The event's `data` when its object is gone: the last data sent for that object, or a reference. */
export async function lastSentData(db: Executor, d: ClaimedDelivery): Promise<BuiltData> {
  const last = await findLastSentEventData(db, d.scope, {
    objectType: d.objectType,
    objectId: d.objectId,
    eventId: d.eventId,
  });
  return { data: last?.data ?? { object: d.objectType, id: d.objectId }, fresh: false };
}

/** An event's `data` for one attempt; `fresh` when built from the object now (kept as its last data). */
export interface BuiltData {
  data: unknown;
  fresh: boolean;
  /** `data` serialised, when the caller has it already (a batch serialises each object once). */
  json?: string;
}

function internalFailure(errorCode: string, error: string): DeliveryAttemptResult {
  return { ok: false, status: null, durationMs: 0, error, errorCode, responseExcerpt: '' };
}

async function sendAttempt(
  db: Db,
  d: ClaimedDelivery,
  opts: WebhookOptions,
): Promise<{ result: DeliveryAttemptResult; dataJson?: string }> {
  let built: BuiltData;
  try {
    built = await eventData(db, d, opts.config, opts.now());
  } catch (err) {
    return sendBuilt(d, err instanceof Error ? err : new Error(String(err)), opts);
  }
  return sendBuilt(d, built, opts);
}

/**
 * Signs and POSTs one attempt whose `data` was built (or failed to build: `Error`), through the
 * outbound guard. `openSecret` lets a batch open each endpoint's secret once.
 */
export async function sendBuilt(
  d: ClaimedDelivery,
  built: BuiltData | Error,
  opts: WebhookOptions & { openSecret?: (d: ClaimedDelivery) => string },
): Promise<{ result: DeliveryAttemptResult; dataJson?: string }> {
  const { config } = opts;
  const openSecret =
    opts.openSecret ?? ((x: ClaimedDelivery) => openEndpointSecret(config, x.scope, x.secret));
  if (built instanceof Error) {
    opts.logger?.error(
      { err: built, deliveryId: d.id, eventId: d.eventId },
      'webhook event data could not be built',
    );
    return { result: internalFailure('data_error', 'The event data could not be built (server error)') };
  }
  let secret: string;
  try {
    secret = openSecret(d);
  } catch (err) {
    opts.logger?.error({ err, deliveryId: d.id }, 'webhook signing secret could not be decrypted');
    return {
      result: internalFailure(
        'secret_error',
        'The signing secret could not be decrypted (server error: was SECRET_KEY changed?)',
      ),
    };
  }
  // The data is serialised once: into the body, and (when fresh) as the event's last known data.
  const dataJson = built.json ?? JSON.stringify(built.data === undefined ? null : built.data);
  const request = buildDeliveryRequest({
    serviceName: config.WEBHOOK_SERVICE_NAME,
    secret,
    event: { id: d.eventId, type: d.type, created_at: d.eventCreatedAt.toISOString(), data: built.data },
    dataJson,
    deliveryId: d.deliveryUuid,
    customHeaders: d.headers,
    nowSeconds: Math.floor(opts.now().getTime() / 1000),
  });
  const result = await deliverWebhook({
    url: d.url,
    body: request.body,
    headers: request.headers,
    timeoutMs: config.WEBHOOK_TIMEOUT_SECONDS * 1000,
    allowPrivate: config.WEBHOOK_ALLOW_PRIVATE,
    ...(opts.lookup ? { lookup: opts.lookup } : {}),
  });
  return built.fresh ? { result, dataJson } : { result };
}

/** What an attempt's result makes of its delivery: done, failed for good, or pending until `nextAt`. */
function nextState(
  d: Pick<ClaimedDelivery, 'type' | 'attempt'>,
  result: DeliveryAttemptResult,
  { config, now }: { config: Config; now: Date },
): { status: 'succeeded' | 'failed' | 'pending'; nextAt: Date | null } {
  const delay = result.ok
    ? null
    : nextRetryDelayForEvent(d.type, d.attempt, config.WEBHOOK_RETRY_BASE_SECONDS);
  const status = result.ok ? 'succeeded' : delay === null ? 'failed' : 'pending';
  return {
    status,
    nextAt: status === 'pending' && delay !== null ? new Date(now.getTime() + delay * 1000) : null,
  };
}

/** An attempt's outcome as the outcome record takes it (webhook-claims.ts), whichever path made it. */
export function outcomeRow(
  d: ClaimedDelivery,
  outcome: { result: DeliveryAttemptResult; dataJson?: string },
  { config, now, job }: { config: Config; now: Date; job: OutcomeRow['job'] },
): OutcomeRow {
  const { result } = outcome;
  const { status, nextAt } = nextState(d, result, { config, now });
  return {
    deliveryId: d.id,
    deliveryUuid: d.deliveryUuid,
    eventId: d.eventId,
    attempt: d.attempt,
    status,
    nextAt,
    statusCode: result.status,
    error: result.error,
    errorCode: result.errorCode,
    durationMs: result.durationMs,
    responseExcerpt: result.responseExcerpt === '' ? null : result.responseExcerpt,
    ...(outcome.dataJson === undefined ? {} : { dataJson: outcome.dataJson }),
    job,
  };
}

/**
 * Records the attempt's outcome in one statement, the worker's (batch.ts, recordOutcomes): the
 * attempt, the event's last known data, the job that woke it done, the delivery's new state fenced
 * by the lease and, when another attempt is due later, its wake-up job.
 */
async function recordOutcome(
  db: Db,
  d: ClaimedDelivery,
  outcome: { result: DeliveryAttemptResult; dataJson?: string },
  opts: WebhookOptions,
): Promise<'succeeded' | 'retrying' | 'failed' | 'superseded'> {
  const now = opts.now();
  const row = outcomeRow(d, outcome, { config: opts.config, now, job: opts.job ?? null });
  const recorded = await recordOutcomes(db, [row], { now, leaseMs: webhookLeaseMs(opts.config) });
  if (!recorded.has(d.id)) return 'superseded';
  return row.status === 'pending' ? 'retrying' : row.status;
}

/** The attempt's heartbeat: extends its lease while it still holds the delivery. */
function renewAttemptLease(db: Db, d: ClaimedDelivery, opts: WebhookOptions): Promise<boolean> {
  return renewDeliveryLease(db, {
    deliveryId: d.id,
    deliveryUuid: d.deliveryUuid,
    until: new Date(opts.now().getTime() + webhookLeaseMs(opts.config)),
  });
}

export type WebhookAttemptOutcome =
  | { kind: 'succeeded' | 'retrying' | 'failed' | 'superseded'; attempt: number; deliveryId: string }
  | { kind: 'leased'; until: Date }
  | { kind: 'skipped' };

/**
 * Makes one attempt of a delivery if it is pending, due and not held by another attempt: builds
 * `data` now, signs, POSTs through the outbound guard, records the attempt, and schedules the next
 * one on the specification's back-off (or marks the delivery failed after the last one). Never
 * throws for a failed delivery; only a database failure escapes.
 */
export async function attemptWebhookDelivery(
  { db }: Pick<ServiceContext, 'db'>,
  deliveryId: number,
  { manual = false, ...opts }: WebhookOptions & { manual?: boolean },
): Promise<WebhookAttemptOutcome> {
  const claim = await claimDelivery({ db }, deliveryId, { ...opts, manual });
  if (claim.kind === 'skip') return { kind: 'skipped' };
  if (claim.kind === 'leased') return claim;
  const d = claim.delivery;
  const lease = holdLease(() => renewAttemptLease(db, d, opts), {
    leaseMs: webhookLeaseMs(opts.config),
    logger: opts.logger,
    what: `webhook delivery ${d.id}`,
  });
  const outcome = await sendAttempt(db, d, opts)
    .catch((err: unknown) => {
      // A fault of ours (not the receiver's) still ends this attempt on record and on the back-off.
      opts.logger?.error({ err, deliveryId: d.id, eventId: d.eventId }, 'webhook attempt could not be made');
      return {
        result: internalFailure('internal_error', 'The request could not be prepared (server error)'),
      };
    })
    .finally(lease.stop);
  const kind = await recordOutcome(db, d, outcome, opts);
  reportAttempt(opts, d, { result: outcome.result, kind });
  return { kind, attempt: d.attempt, deliveryId: d.deliveryUuid };
}

/** The log line (info) and the count (metrics) of every attempt, whichever path made it. */
export function reportAttempt(
  opts: Pick<WebhookOptions, 'logger' | 'metrics'>,
  d: ClaimedDelivery,
  {
    result,
    kind,
  }: { result: DeliveryAttemptResult; kind: 'succeeded' | 'retrying' | 'failed' | 'superseded' },
): void {
  opts.metrics?.webhookAttempt(kind === 'retrying' ? 'retry' : kind);
  const logger = opts.logger;
  if (!logger?.isLevelEnabled('info')) return;
  logger.info(
    {
      deliveryId: d.id,
      eventId: d.eventId,
      type: d.type,
      attempt: d.attempt,
      status: result.status,
      errorCode: result.errorCode,
      durationMs: result.durationMs,
      outcome: kind,
    },
    'webhook attempt',
  );
}

/**
 * The `webhook.deliver` job. A failed delivery does not throw: the next attempt is queued on the
 * webhook back-off, not the job queue's. `lookup` lets tests inject DNS answers.
 */
export function createWebhookDeliverJob(extra: { lookup?: ResolveHost } = {}): JobHandler {
  return async (ctx, payload, job) => {
    const deliveryId = Number(payload.deliveryId);
    if (!Number.isSafeInteger(deliveryId))
      throw new Error('webhook.deliver: payload.deliveryId is not an id');
    const outcome = await attemptWebhookDelivery(ctx, deliveryId, {
      config: ctx.config,
      now: ctx.now,
      logger: ctx.logger,
      metrics: ctx.deps.metrics,
      job,
      ...(extra.lookup ? { lookup: extra.lookup } : {}),
    });
    // An attempt was made and recorded: the statement that recorded it finished this job too.
    if (outcome.kind !== 'leased' && outcome.kind !== 'skipped') return 'finished';
    if (outcome.kind === 'leased') {
      // An attempt is in flight elsewhere (or its worker died): look again when its lease ends.
      await enqueueJob(ctx.db, {
        kind: WEBHOOK_DELIVER_JOB,
        payload: { deliveryId },
        runAt: new Date(outcome.until.getTime() + 1000),
      });
    }
  };
}

export const webhookDeliverJob: JobHandler = createWebhookDeliverJob();

/**
 * Sends `webhook.test` to one endpoint now, whatever events it subscribes to (and even while it is
 * disabled, so it can be tried before it is switched on), and returns its delivery record. It is
 * never retried. The event and its delivery are committed first; if this process stops before the
 * attempt is recorded, a worker makes the attempt once the lease has run out.
 */
export async function sendTestWebhook(
  { db }: Pick<ServiceContext, 'db'>,
  scope: Scope,
  { endpointId, ...opts }: WebhookOptions & { endpointId: number },
): Promise<WebhookDeliveryDto> {
  const now = opts.now();
  const deliveryId = await db.transaction().execute(async (tx) => {
    await findEndpoint(tx, scope, endpointId);
    const event = await recordEvent(tx, scope, {
      type: 'webhook.test',
      objectType: 'webhook_endpoint',
      objectId: endpointId,
      now,
    });
    const id = await insertDelivery(tx, { eventId: event.id, endpointId, now });
    await enqueueJob(tx, deliverJob(id, 1, new Date(now.getTime() + webhookLeaseMs(opts.config) + 1000)));
    return id;
  });
  await attemptWebhookDelivery({ db }, deliveryId, opts);
  return getWebhookDelivery(db, scope, deliveryId);
}
