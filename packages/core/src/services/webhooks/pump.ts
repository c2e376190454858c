import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Db, JobRow } from '@esign/db';
import { buildEventDataMany } from '../event-data.ts';
import { JOB_LEASE_MS, type JobContext, type JobHandler } from '../jobs.ts';
import { listenForJobs, runClaimedJob, type WorkerHandle } from '../worker.ts';
import {
  type BatchItem,
  claimDeliveryBatch,
  type OutcomeRow,
  recordOutcomeBatch,
  renewBatchLeases,
} from './batch.ts';
import type { ClaimedDelivery } from './claim.ts';
import { type BuiltData, lastSentData, nextState, reportAttempt, sendBuilt } from './delivery.ts';
import { WEBHOOK_DELIVER_JOB, type WebhookOptions, webhookLeaseMs } from './options.ts';
import { openEndpointSecret } from './secret-box.ts';

// The worker's webhook loop (issue 16): up to `concurrency` attempts in flight, claimed in batches
// and recorded in batches. A claim asks for as many jobs as there are free slots, so a backlog is
// taken a slot-full at a time while a single event costs one claim; outcomes are written by one
// statement at a time, and whatever finished while it ran goes in the next one (group commit), so
// a lone delivery is recorded at once and a busy worker writes many per statement.

/** How long a full worker waits for more slots to free before it claims for the ones that did. */
const GATHER_MS = 5;

export interface WebhookWorkerOptions {
  /** Attempts in flight at once (`WEBHOOK_CONCURRENCY`). */
  concurrency: number;
  /** Idle poll, the fallback when no notification arrives (default 500 ms). */
  pollMs?: number;
  /** Connection string for the LISTEN connection that wakes the loop on commit. */
  listenUrl?: string;
  /**
   * Lease of a claimed job and of its attempt's delivery, renewed every third of it while the
   * attempt runs (default JOB_LEASE_MS and webhookLeaseMs; tests shorten it).
   */
  leaseMs?: number;
  /** The `webhook.deliver` handler for jobs the batch claim leaves to it (retries after a crash, ...). */
  handler: JobHandler;
  /** DNS answers for the address checks (tests). */
  lookup?: WebhookOptions['lookup'];
}

/** Outcomes waiting for the statement that records them; one statement runs at a time. */
function outcomeRecorder(db: Db, now: () => Date) {
  let queue: { row: OutcomeRow; resolve: (written: boolean) => void; reject: (err: unknown) => void }[] = [];
  let flushing = false;
  // Never rejects: a statement's failure is handed to the callers whose outcomes it carried.
  const flush = async () => {
    while (queue.length > 0) {
      const batch = queue;
      queue = [];
      await recordOutcomeBatch(
        db,
        batch.map((b) => b.row),
        now(),
      ).then(
        (written) => {
          for (const b of batch) b.resolve(written.has(b.row.deliveryId));
        },
        (err: unknown) => {
          for (const b of batch) b.reject(err);
        },
      );
    }
    flushing = false;
  };
  return {
    record(row: OutcomeRow): Promise<boolean> {
      return new Promise((resolve, reject) => {
        queue.push({ row, resolve, reject });
        if (!flushing) {
          flushing = true;
          flush().catch(reject); // flush settles its callers itself; should it throw, this one hears it
        }
      });
    },
  };
}

type Recorder = ReturnType<typeof outcomeRecorder>;

/** The rest of one claimed batch's attempts: their data in one go, each secret opened once. */
function batchContext(ctx: JobContext, items: BatchItem[], opts: WebhookOptions) {
  const deliveries = items.flatMap((i) => (i.delivery ? [i.delivery] : []));
  const data = buildEventDataMany(ctx.db, deliveries, { config: ctx.config, now: ctx.now() });
  // Without a rejection handler here a failed build would be unhandled until the first send awaits it.
  data.catch(() => {});
  const secrets = new Map<string, string>();
  return {
    async dataOf(d: ClaimedDelivery): Promise<BuiltData | Error> {
      let got: { data: unknown } | Error | undefined;
      try {
        got = (await data).get(d);
      } catch (err) {
        return err instanceof Error ? err : new Error(String(err));
      }
      if (got instanceof Error) return got;
      if (got) return { data: got.data === undefined ? null : got.data, fresh: true };
      try {
        return await lastSentData(ctx.db, d);
      } catch (err) {
        return err instanceof Error ? err : new Error(String(err));
      }
    },
    openSecret(d: ClaimedDelivery): string {
      const key = `${d.scope.accountId}|${d.scope.environment}|${d.secret}`;
      let secret = secrets.get(key);
      if (secret === undefined) {
        secret = openEndpointSecret(opts.config, d.scope, d.secret);
        secrets.set(key, secret);
      }
      return secret;
    },
  };
}

/** One attempt of a batch: data, sign, POST through the guard, then its outcome into the next record. */
async function attemptClaimed(
  job: JobRow,
  d: ClaimedDelivery,
  batch: ReturnType<typeof batchContext>,
  recorder: Recorder,
  opts: WebhookOptions,
): Promise<void> {
  const outcome = await sendBuilt(d, await batch.dataOf(d), opts, batch.openSecret).catch((err: unknown) => {
    opts.logger?.error({ err, deliveryId: d.id, eventId: d.eventId }, 'webhook attempt could not be made');
    return {
      result: {
        ok: false,
        status: null,
        durationMs: 0,
        error: 'The request could not be prepared (server error)',
        errorCode: 'internal_error',
        responseExcerpt: '',
      },
    };
  });
  const { result } = outcome;
  const { status, nextAt } = nextState(d, result, opts.config, opts.now());
  const written = await recorder.record({
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
    ...('data' in outcome ? { data: outcome.data } : {}),
    job,
  });
  const kind = !written ? 'superseded' : status === 'pending' ? 'retrying' : status;
  reportAttempt(opts, d, result, kind);
}

/** Starts the attempts (and the handler's jobs) of a claimed batch, each in `inFlight` until it ends. */
function attemptStarter(
  ctx: JobContext,
  opts: WebhookWorkerOptions,
  jobLeaseMs: number,
  inFlight: Map<BatchItem, Promise<void>>,
  onEnd: () => void,
) {
  const webhookOpts: WebhookOptions = {
    config: ctx.config,
    now: ctx.now,
    logger: ctx.logger,
    metrics: ctx.deps.metrics,
    ...(opts.lookup ? { lookup: opts.lookup } : {}),
  };
  const recorder = outcomeRecorder(ctx.db, ctx.now);
  const handlers = { [WEBHOOK_DELIVER_JOB]: opts.handler };
  return (items: BatchItem[]) => {
    const batch = batchContext(ctx, items, webhookOpts);
    for (const item of items) {
      const run = item.delivery
        ? attemptClaimed(item.job, item.delivery, batch, recorder, webhookOpts).catch((err: unknown) =>
            // The outcome could not be written (database lost): the leases run out and the attempt
            // is made again as an abandoned one (at least once).
            ctx.logger.error({ err, deliveryId: item.delivery!.id }, 'webhook attempt outcome not recorded'),
          )
        : runClaimedJob(ctx, handlers, item.job, jobLeaseMs);
      inFlight.set(
        item,
        run.finally(() => {
          inFlight.delete(item);
          onEnd();
        }),
      );
    }
  };
}

/**
 * The heartbeat of the attempts in flight: one statement renews every held job and delivery lease
 * every third of the lease (a dead worker's stop, and another worker takes them over after it).
 */
function renewInFlight(
  ctx: JobContext,
  inFlight: Map<BatchItem, unknown>,
  leases: { jobMs: number; deliveryMs: number },
): NodeJS.Timeout {
  const timer = setInterval(
    () => {
      const held = [...inFlight.keys()].filter((i) => i.delivery);
      const items = held.map((i) => ({ job: i.job, deliveryUuid: i.delivery!.deliveryUuid }));
      renewBatchLeases(ctx.db, items, ctx.now(), leases).then(
        (n) => {
          // Fewer: being recorded this instant, or taken over (the outcome then says superseded).
          if (n.deliveries < items.length || n.jobs < items.length)
            ctx.logger.debug({ ...n, held: items.length }, 'webhook worker: not every lease renewed');
        },
        (err: unknown) => ctx.logger.warn({ err }, 'webhook worker: lease renewal failed; retrying'),
      );
    },
    Math.max(1, Math.floor(Math.min(leases.jobMs, leases.deliveryMs) / 3)),
  );
  timer.unref();
  return timer;
}

/**
 * Runs `webhook.deliver` jobs: batch claims (claimDeliveryBatch), attempts in flight up to
 * `concurrency`, batch records; jobs the claim leaves to the handler run as ordinary jobs. Woken by
 * the jobs channel on commit, polling as the fallback; the leases of the attempts in flight are
 * renewed together every third of the lease. `stop()` lets the attempts in flight finish.
 */
export function startWebhookWorker(ctx: JobContext, opts: WebhookWorkerOptions): WorkerHandle {
  const workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}:webhooks`;
  const leases = {
    jobMs: opts.leaseMs ?? JOB_LEASE_MS,
    deliveryMs: opts.leaseMs ?? webhookLeaseMs(ctx.config),
  };
  const pollMs = opts.pollMs ?? 500;
  const log = ctx.logger;
  const inFlight = new Map<BatchItem, Promise<void>>();
  const wait = waiter();
  let stopping = false;
  const start = attemptStarter(ctx, opts, leases.jobMs, inFlight, () => wait.wake('slot'));

  // A full worker claims again once half of its slots are free, or GATHER_MS after the first
  // one freed: one claim (and one data read) for several attempts rather than one per attempt.
  const minBatch = Math.max(1, Math.floor(opts.concurrency / 2));
  const gather = async () => {
    const until = performance.now() + GATHER_MS;
    while (!stopping && opts.concurrency - inFlight.size < minBatch) {
      const left = until - performance.now();
      if (left <= 0) return;
      await wait.sleep('slot', left);
    }
  };

  const loop = async () => {
    while (!stopping) {
      const free = opts.concurrency - inFlight.size;
      if (free <= 0) {
        await wait.sleep('slot', null);
        await gather();
        continue;
      }
      const seen = wait.notified;
      let items: BatchItem[] = [];
      try {
        items = await claimDeliveryBatch(ctx.db, workerId, free, ctx.now(), leases);
      } catch (err) {
        log.error({ err }, 'webhook worker claim failed');
      }
      start(items);
      if (items.length < free && !stopping && seen === wait.notified) await wait.sleep('work', pollMs);
    }
  };

  const heartbeat = renewInFlight(ctx, inFlight, leases);
  const listener = opts.listenUrl
    ? listenForJobs(opts.listenUrl, log, (kind) => {
        if (kind === undefined || kind === WEBHOOK_DELIVER_JOB) wait.wake('work', true);
      })
    : null;
  const looping = loop();
  return {
    async stop() {
      stopping = true;
      wait.wakeAll();
      await looping;
      await Promise.all([
        listener?.close().catch((err) => log.warn({ err }, 'closing the job listener failed')),
        ...inFlight.values(),
      ]);
      clearInterval(heartbeat);
    },
  };
}

/**
 * The loop's one sleep: waiting for a free slot (woken when an attempt ends) or for work (woken by
 * a notification; the poll as the fallback). A slot freed while waiting for work does not wake it:
 * the queue was found empty, and a finished attempt adds nothing due now.
 */
function waiter() {
  let sleeper: { reason: 'slot' | 'work'; done: () => void } | null = null;
  let notified = 0;
  return {
    get notified() {
      return notified;
    },
    wake(reason: 'slot' | 'work', fromNotification = false) {
      if (fromNotification) notified++;
      if (sleeper?.reason === reason) sleeper.done();
    },
    wakeAll() {
      notified++;
      sleeper?.done();
    },
    sleep(reason: 'slot' | 'work', ms: number | null) {
      return new Promise<void>((resolve) => {
        const done = () => {
          if (timer) clearTimeout(timer);
          sleeper = null;
          resolve();
        };
        const timer = ms === null ? null : setTimeout(done, ms);
        timer?.unref();
        sleeper = { reason, done };
      });
    },
  };
}
