import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { JobRow } from '@esign/db';
import { renewDeliveryBatchLeases } from '@esign/db/queries/webhooks';
import { buildEventDataMany } from '../event-data.ts';
import { JOB_LEASE_MS, type JobContext, type JobHandler } from '../jobs.ts';
import { listenForJobs, runClaimedJob, type WorkerHandle } from '../worker.ts';
import { type BatchItem, type OutcomeRow, recordAndClaim } from './batch.ts';
import type { ClaimedDelivery } from './claim.ts';
import { type BuiltData, lastSentData, nextState, reportAttempt, sendBuilt } from './delivery.ts';
import { WEBHOOK_DELIVER_JOB, type WebhookOptions, webhookLeaseMs } from './options.ts';
import { openEndpointSecret } from './secret-box.ts';

// The worker's webhook loop (issue 16, issue 31): up to `concurrency` attempts in flight. The loop
// talks to the database in turns, one statement at a time: each turn records the outcomes of the
// attempts that finished since the last one and claims as many due jobs as there are free slots
// (batch.ts, recordAndClaim), so a busy worker makes one statement (plus one read of the events'
// data) per slot-full of deliveries, while a lone event costs one turn to claim it and one to
// record it. A turn waits for at most GATHER_MS (or for half of the slots) so that it carries
// several outcomes and claims; it never waits when nothing else is in flight.

/**
 * How long a turn waits for more attempts to finish before it records and claims for those that
 * did. Waiting delays no receipt (a lone event's turns never wait; with half of the slots free a
 * turn claims at once), and each statement costs more CPU than a dozen requests (issue 31: 5 ms
 * made turns of two or three outcomes on a loaded machine).
 */
const GATHER_MS = 20;
/** After a turn that failed (database unreachable), the next one waits this long. */
const FAILED_TURN_PAUSE_MS = 1_000;
/** Opened endpoint secrets kept between batches (keyed by their sealed value: a rotation is a new key). */
const SECRET_CACHE_ENTRIES = 1_000;

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

/** A finished attempt waiting for the turn that records it. */
interface PendingOutcome {
  row: OutcomeRow;
  resolve: (written: boolean) => void;
  reject: (err: unknown) => void;
}

/** Endpoint secrets opened once, and kept for the next batches (bounded). */
function secretCache(opts: WebhookOptions) {
  const secrets = new Map<string, string>();
  return (d: ClaimedDelivery): string => {
    const key = `${d.scope.accountId}|${d.scope.environment}|${d.secret}`;
    let secret = secrets.get(key);
    if (secret === undefined) {
      secret = openEndpointSecret(opts.config, d.scope, d.secret);
      if (secrets.size >= SECRET_CACHE_ENTRIES) secrets.clear();
      secrets.set(key, secret);
    }
    return secret;
  };
}

/**
 * The rest of one claimed batch's attempts: their data in one go, each object's data serialised
 * once for every request that carries it and for its record.
 */
function batchContext(
  ctx: JobContext,
  items: BatchItem[],
  opts: WebhookOptions & { openSecret: (d: ClaimedDelivery) => string },
) {
  const deliveries = items.flatMap((i) => (i.delivery ? [i.delivery] : []));
  const data = buildEventDataMany(ctx.db, deliveries, { config: ctx.config, now: ctx.now() });
  // Without a rejection handler here a failed build would be unhandled until the first send awaits it.
  data.catch(() => {});
  const serialised = new Map<unknown, string>();
  const json = (value: unknown): string => {
    let text = serialised.get(value);
    if (text === undefined) {
      text = JSON.stringify(value);
      serialised.set(value, text);
    }
    return text;
  };
  return {
    async dataOf(d: ClaimedDelivery): Promise<BuiltData | Error> {
      let got: { data: unknown } | Error | undefined;
      try {
        got = (await data).get(d);
      } catch (err) {
        return err instanceof Error ? err : new Error(String(err));
      }
      if (got instanceof Error) return got;
      if (got) {
        const value = got.data === undefined ? null : got.data;
        return { data: value, fresh: true, json: json(value) };
      }
      try {
        return await lastSentData(ctx.db, d);
      } catch (err) {
        return err instanceof Error ? err : new Error(String(err));
      }
    },
    opts,
  };
}

/** One attempt of a batch: data, sign, POST through the guard; resolves with its outcome to record. */
async function attemptClaimed(
  job: JobRow,
  d: ClaimedDelivery,
  batch: ReturnType<typeof batchContext>,
): Promise<OutcomeRow> {
  const opts = batch.opts;
  const outcome = await sendBuilt(d, await batch.dataOf(d), opts).catch((err: unknown) => {
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
    ...('dataJson' in outcome && outcome.dataJson !== undefined ? { dataJson: outcome.dataJson } : {}),
    job,
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
      const now = ctx.now().getTime();
      renewDeliveryBatchLeases(ctx.db, items, {
        jobUntil: new Date(now + leases.jobMs),
        deliveryUntil: new Date(now + leases.deliveryMs),
      }).then(
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
 * Runs `webhook.deliver` jobs: turns that record finished attempts and claim for the free slots in
 * one statement, attempts in flight up to `concurrency`; jobs the claim leaves to the handler run
 * as ordinary jobs. Woken by the jobs channel on commit, polling as the fallback; the leases of the
 * attempts in flight are renewed together every third of the lease. `stop()` lets the attempts in
 * flight finish and records them.
 */
export function startWebhookWorker(ctx: JobContext, opts: WebhookWorkerOptions): WorkerHandle {
  const workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}:webhooks`;
  const leases = {
    jobMs: opts.leaseMs ?? JOB_LEASE_MS,
    deliveryMs: opts.leaseMs ?? webhookLeaseMs(ctx.config),
  };
  const pollMs = opts.pollMs ?? 500;
  const log = ctx.logger;
  const webhookOpts: WebhookOptions = {
    config: ctx.config,
    now: ctx.now,
    logger: ctx.logger,
    metrics: ctx.deps.metrics,
    ...(opts.lookup ? { lookup: opts.lookup } : {}),
  };
  // Every batch's attempts sign with secrets opened once (secretCache).
  const sendOpts = { ...webhookOpts, openSecret: secretCache(webhookOpts) };
  const handlers = { [WEBHOOK_DELIVER_JOB]: opts.handler };
  // Every claimed item until its outcome is recorded (the heartbeat renews their leases).
  const inFlight = new Map<BatchItem, Promise<void>>();
  // Attempts still sending and handler jobs still running: each holds a slot.
  let busy = 0;
  const outcomes: PendingOutcome[] = [];
  let firstOutcomeAt = 0;
  // When a slot freed while fewer than half were free (the turn then waits up to GATHER_MS).
  let slotFreedAt: number | null = null;
  // Whether a claim may find work: cleared by a claim that came back short, set by a notification
  // or the poll.
  let workMaybe = true;
  let notified = 0;
  let stopping = false;
  let wake: (() => void) | null = null;
  const poke = () => wake?.();
  const minBatch = Math.max(1, Math.floor(opts.concurrency / 2));

  const finished = (item: BatchItem, outcome: OutcomeRow) =>
    new Promise<boolean>((resolve, reject) => {
      if (outcomes.length === 0) firstOutcomeAt = performance.now();
      outcomes.push({ row: outcome, resolve, reject });
    }).then((written) => {
      const d = item.delivery!;
      const { status } = outcome;
      reportAttempt(
        webhookOpts,
        d,
        resultOf(outcome),
        !written ? 'superseded' : status === 'pending' ? 'retrying' : status,
      );
    });

  const slotFreed = () => {
    busy--;
    if (slotFreedAt === null) slotFreedAt = performance.now();
    poke();
  };

  const start = (items: BatchItem[]) => {
    if (items.length === 0) return;
    const batch = batchContext(ctx, items, sendOpts);
    for (const item of items) {
      busy++;
      const run = item.delivery
        ? attemptClaimed(item.job, item.delivery, batch).then(
            (outcome) => {
              const recorded = finished(item, outcome);
              slotFreed();
              return recorded;
            },
            (err: unknown) => {
              slotFreed();
              throw err;
            },
          )
        : runClaimedJob(ctx, handlers, item.job, leases.jobMs).finally(slotFreed);
      inFlight.set(
        item,
        run
          .catch((err: unknown) =>
            // The outcome could not be written (database lost): the leases run out and the attempt
            // is made again as an abandoned one (at least once).
            log.error({ err, deliveryId: item.delivery?.id }, 'webhook attempt outcome not recorded'),
          )
          .finally(() => inFlight.delete(item)),
      );
    }
  };

  /** What the next turn does now (records, claims), or when to look again if nothing yet. */
  const decide = (): { record: boolean; claim: number } | { wait: number | null } => {
    const now = performance.now();
    const free = stopping ? 0 : opts.concurrency - busy;
    const gathered = slotFreedAt !== null && now - slotFreedAt >= GATHER_MS;
    const claim = workMaybe && free > 0 && (free >= minBatch || busy === 0 || gathered) ? free : 0;
    const age = now - firstOutcomeAt;
    const record =
      outcomes.length > 0 && (claim > 0 || busy === 0 || outcomes.length >= minBatch || age >= GATHER_MS);
    if (record || claim > 0) return { record, claim };
    // Nothing yet: wake at the nearest gathering deadline, or when an attempt ends or work arrives.
    const deadlines: number[] = [];
    if (outcomes.length > 0) deadlines.push(GATHER_MS - age);
    if (workMaybe && free > 0 && slotFreedAt !== null) deadlines.push(GATHER_MS - (now - slotFreedAt));
    return { wait: deadlines.length ? Math.max(0, Math.min(...deadlines)) : null };
  };

  const sleep = (ms: number | null) =>
    new Promise<void>((resolve) => {
      const timer = ms === null ? null : setTimeout(() => done(), ms);
      const done = () => {
        if (timer) clearTimeout(timer);
        wake = null;
        resolve();
      };
      wake = done;
    });

  // The idle poll: a claim may find work again (jobs due later, lost notifications).
  const poll = setInterval(() => {
    if (!workMaybe) {
      workMaybe = true;
      poke();
    }
  }, pollMs);
  poll.unref();

  const loop = async () => {
    while (!(stopping && busy === 0 && outcomes.length === 0)) {
      const next = decide();
      if ('wait' in next) {
        await sleep(next.wait);
        continue;
      }
      const batch = next.record ? outcomes.splice(0) : [];
      const seen = notified;
      let turn: Awaited<ReturnType<typeof recordAndClaim>>;
      try {
        turn = await recordAndClaim(
          ctx.db,
          batch.map((b) => b.row),
          { workerId, limit: next.claim, now: ctx.now(), leases },
        );
      } catch (err) {
        log.error({ err }, 'webhook worker: recording outcomes and claiming failed');
        for (const b of batch) b.reject(err);
        if (!stopping) await sleep(FAILED_TURN_PAUSE_MS);
        continue;
      }
      for (const b of batch) b.resolve(turn.recorded.has(b.row.deliveryId));
      if (next.claim > 0) {
        slotFreedAt = null;
        if (turn.items.length < next.claim && seen === notified) workMaybe = false;
        start(turn.items);
      }
    }
  };

  const heartbeat = renewInFlight(ctx, inFlight, leases);
  const listener = opts.listenUrl
    ? listenForJobs(opts.listenUrl, log, (kind) => {
        if (kind === undefined || kind === WEBHOOK_DELIVER_JOB) {
          notified++;
          workMaybe = true;
          poke();
        }
      })
    : null;
  const looping = loop();
  return {
    async stop() {
      stopping = true;
      poke();
      await looping;
      await Promise.all([
        listener?.close().catch((err) => log.warn({ err }, 'closing the job listener failed')),
        ...inFlight.values(),
      ]);
      clearInterval(poll);
      clearInterval(heartbeat);
    },
  };
}

/** The attempt's result as reportAttempt logs it, from its recorded outcome. */
function resultOf(o: OutcomeRow) {
  return {
    ok: o.status === 'succeeded',
    status: o.statusCode,
    durationMs: o.durationMs,
    error: o.error,
    errorCode: o.errorCode,
    responseExcerpt: o.responseExcerpt ?? '',
  };
}
