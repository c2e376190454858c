import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { JobRow } from '@esign/db';
import { renewDeliveryBatchLeases } from '@esign/db/queries/webhook-claims';
import { buildEventDataMany } from '../event-data.ts';
import { JOB_LEASE_MS, type JobContext, type JobHandler } from '../jobs.ts';
import { listenForJobs, runClaimedJob, type WorkerHandle } from '../worker.ts';
import { type BatchItem, type OutcomeRow, recordAndClaim } from './batch.ts';
import type { ClaimedDelivery } from './claim.ts';
import { type BuiltData, lastSentData, outcomeRow, reportAttempt, sendBuilt } from './delivery.ts';
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
  return outcomeRow(d, outcome, { config: opts.config, now: opts.now(), job });
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
  const pump = new WebhookPump(ctx, opts);
  const heartbeat = renewInFlight(ctx, pump.inFlight, pump.leases);
  const poll = setInterval(() => pump.polled(), opts.pollMs ?? 500);
  poll.unref();
  const listener = opts.listenUrl
    ? listenForJobs(opts.listenUrl, ctx.logger, (kind) => {
        if (kind === undefined || kind === WEBHOOK_DELIVER_JOB) pump.notified();
      })
    : null;
  const looping = pump.loop();
  return {
    async stop() {
      pump.stop();
      await looping;
      await Promise.all([
        listener?.close().catch((err) => ctx.logger.warn({ err }, 'closing the job listener failed')),
        ...pump.inFlight.values(),
      ]);
      clearInterval(poll);
      clearInterval(heartbeat);
    },
  };
}

/** The state of one webhook worker's loop: its slots, the outcomes waiting for a turn, its wake-ups. */
class WebhookPump {
  readonly workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}:webhooks`;
  readonly leases: { jobMs: number; deliveryMs: number };
  /** Every claimed item until its outcome is recorded (the heartbeat renews their leases). */
  readonly inFlight = new Map<BatchItem, Promise<void>>();
  private readonly webhookOpts: WebhookOptions;
  /** Every batch's attempts sign with secrets opened once (secretCache). */
  private readonly sendOpts: WebhookOptions & { openSecret: ReturnType<typeof secretCache> };
  private readonly handlers: Record<string, JobHandler>;
  private readonly minBatch: number;
  /** Attempts still sending and handler jobs still running: each holds a slot. */
  private busy = 0;
  private readonly outcomes: PendingOutcome[] = [];
  private firstOutcomeAt = 0;
  /** When a slot freed while fewer than half were free (the turn then waits up to GATHER_MS). */
  private slotFreedAt: number | null = null;
  /** Whether a claim may find work: cleared by a claim that came back short, set by a notification or the poll. */
  private workMaybe = true;
  private notifications = 0;
  private stopping = false;
  private wake: (() => void) | null = null;

  private readonly ctx: JobContext;
  private readonly opts: WebhookWorkerOptions;

  constructor(ctx: JobContext, opts: WebhookWorkerOptions) {
    this.ctx = ctx;
    this.opts = opts;
    this.leases = {
      jobMs: opts.leaseMs ?? JOB_LEASE_MS,
      deliveryMs: opts.leaseMs ?? webhookLeaseMs(ctx.config),
    };
    this.webhookOpts = {
      config: ctx.config,
      now: ctx.now,
      logger: ctx.logger,
      metrics: ctx.deps.metrics,
      ...(opts.lookup ? { lookup: opts.lookup } : {}),
    };
    this.sendOpts = { ...this.webhookOpts, openSecret: secretCache(this.webhookOpts) };
    this.handlers = { [WEBHOOK_DELIVER_JOB]: opts.handler };
    this.minBatch = Math.max(1, Math.floor(opts.concurrency / 2));
  }

  /** A notification on the jobs channel: work may be due. */
  notified(): void {
    this.notifications++;
    this.workMaybe = true;
    this.poke();
  }

  /** The idle poll: a claim may find work again (jobs due later, lost notifications). */
  polled(): void {
    if (this.workMaybe) return;
    this.workMaybe = true;
    this.poke();
  }

  stop(): void {
    this.stopping = true;
    this.poke();
  }

  async loop(): Promise<void> {
    while (!(this.stopping && this.busy === 0 && this.outcomes.length === 0)) {
      const next = this.decide();
      if ('wait' in next) await this.sleep(next.wait);
      else await this.turn(next);
    }
  }

  /** One statement: records the outcomes gathered so far and claims for the free slots. */
  private async turn(next: { record: boolean; claim: number }): Promise<void> {
    const batch = next.record ? this.outcomes.splice(0) : [];
    const seen = this.notifications;
    let turn: Awaited<ReturnType<typeof recordAndClaim>>;
    try {
      turn = await recordAndClaim(
        this.ctx.db,
        batch.map((b) => b.row),
        { workerId: this.workerId, limit: next.claim, now: this.ctx.now(), leases: this.leases },
      );
    } catch (err) {
      this.ctx.logger.error({ err }, 'webhook worker: recording outcomes and claiming failed');
      for (const b of batch) b.reject(err);
      if (!this.stopping) await this.sleep(FAILED_TURN_PAUSE_MS);
      return;
    }
    for (const b of batch) b.resolve(turn.recorded.has(b.row.deliveryId));
    if (next.claim > 0) {
      this.slotFreedAt = null;
      if (turn.items.length < next.claim && seen === this.notifications) this.workMaybe = false;
      this.start(turn.items);
    }
  }

  /** What the next turn does now (records, claims), or when to look again if nothing yet. */
  private decide(): { record: boolean; claim: number } | { wait: number | null } {
    const now = performance.now();
    const free = this.stopping ? 0 : this.opts.concurrency - this.busy;
    const gathered = this.slotFreedAt !== null && now - this.slotFreedAt >= GATHER_MS;
    const claim =
      this.workMaybe && free > 0 && (free >= this.minBatch || this.busy === 0 || gathered) ? free : 0;
    const age = now - this.firstOutcomeAt;
    const pending = this.outcomes.length;
    const record =
      pending > 0 && (claim > 0 || this.busy === 0 || pending >= this.minBatch || age >= GATHER_MS);
    if (record || claim > 0) return { record, claim };
    // Nothing yet: wake at the nearest gathering deadline, or when an attempt ends or work arrives.
    const deadlines: number[] = [];
    if (pending > 0) deadlines.push(GATHER_MS - age);
    if (this.workMaybe && free > 0 && this.slotFreedAt !== null)
      deadlines.push(GATHER_MS - (now - this.slotFreedAt));
    return { wait: deadlines.length ? Math.max(0, Math.min(...deadlines)) : null };
  }

  private poke(): void {
    this.wake?.();
  }

  private sleep(ms: number | null): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = ms === null ? null : setTimeout(() => done(), ms);
      const done = () => {
        if (timer) clearTimeout(timer);
        this.wake = null;
        resolve();
      };
      this.wake = done;
    });
  }

  /** Starts the claimed items, each in a slot, until its outcome is recorded. */
  private start(items: BatchItem[]): void {
    if (items.length === 0) return;
    const batch = batchContext(this.ctx, items, this.sendOpts);
    for (const item of items) {
      this.busy++;
      const run = item.delivery
        ? attemptClaimed(item.job, item.delivery, batch).then(
            (outcome) => {
              const recorded = this.finished(item, outcome);
              this.slotFreed();
              return recorded;
            },
            (err: unknown) => {
              this.slotFreed();
              throw err;
            },
          )
        : runClaimedJob(this.ctx, this.handlers, { job: item.job, leaseMs: this.leases.jobMs }).finally(() =>
            this.slotFreed(),
          );
      this.inFlight.set(
        item,
        run
          .catch((err: unknown) =>
            // The outcome could not be written (database lost): the leases run out and the attempt
            // is made again as an abandoned one (at least once).
            this.ctx.logger.error(
              { err, deliveryId: item.delivery?.id },
              'webhook attempt outcome not recorded',
            ),
          )
          .finally(() => this.inFlight.delete(item)),
      );
    }
  }

  /** Queues the attempt's outcome for the next turn; reports it once that turn wrote it. */
  private finished(item: BatchItem, outcome: OutcomeRow): Promise<void> {
    return new Promise<boolean>((resolve, reject) => {
      if (this.outcomes.length === 0) this.firstOutcomeAt = performance.now();
      this.outcomes.push({ row: outcome, resolve, reject });
    }).then((written) => {
      const { status } = outcome;
      reportAttempt(this.webhookOpts, item.delivery!, {
        result: resultOf(outcome),
        kind: !written ? 'superseded' : status === 'pending' ? 'retrying' : status,
      });
    });
  }

  private slotFreed(): void {
    this.busy--;
    if (this.slotFreedAt === null) this.slotFreedAt = performance.now();
    this.poke();
  }
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
