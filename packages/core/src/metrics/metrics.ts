import type { PoolStats } from '@esign/db';
import type { DocumentPoolStats } from '@esign/pdf/pool';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { cachedRead } from './cached-read.ts';

// The process's Prometheus metrics (README, "Monitoring"): one registry per process, created by
// createRuntime when METRICS_PORT is set and handed to whoever counts (the HTTP shell, the worker,
// the database pool) through the runtime and CoreDeps; nothing registers itself on import. Our
// own metrics are named esign_*; prom-client's default metrics (process_*, nodejs_*) are kept.

/** One kind's share of the job queue (metrics): due jobs waiting, running ones, the oldest due. */
export interface JobQueueRow {
  kind: string;
  /** Due and unclaimed, or claimed by a worker whose lease ran out (it is taken again). */
  pending: number;
  /** Claimed, under a live lease. */
  running: number;
  /** `run_at` of the oldest pending job (null when none is pending). */
  oldestPendingAt: Date | null;
}

/** One outbox's messages not delivered (metrics): being retried, given up, the oldest waiting. */
export interface MessageBacklogRow {
  channel: 'mail' | 'sms';
  /** `queued` or `failed`: to send, retried on the back-off. */
  waiting: number;
  /** Given up after the retry window: `esign mail retry` / `esign sms retry`. */
  undeliverable: number;
  /** `created_at` of the oldest waiting message (null when none waits). */
  oldestWaitingAt: Date | null;
}

type WebhookDeliveryOutcome = 'succeeded' | 'failed' | 'retry' | 'superseded';
type JobRunOutcome = 'done' | 'retry' | 'failed';
/** The jobs that seal documents (a failed attempt of either is a sealing failure). */
type SealingJob = 'request.seal' | 'signer.copy';

/** What the gauges read at each scrape; set once the process has them (watch). */
interface MetricSources {
  dbPool?: () => PoolStats;
  documentPool?: () => DocumentPoolStats;
  /** The job queue now (one query; cached and time-bounded here). */
  jobQueue?: (now: Date) => Promise<JobQueueRow[]>;
  /** Every job kind there is: each gets a series, 0 when it has no job. */
  jobKinds?: readonly string[];
  /** The email and SMS outboxes' backlog (one query each; cached and time-bounded like the job queue). */
  messageBacklog?: () => Promise<MessageBacklogRow[]>;
}

export interface Metrics {
  /** The Prometheus text exposition of every metric, and its Content-Type. */
  exposition(): Promise<string>;
  readonly contentType: string;
  /** One HTTP response: its route pattern (never the raw URL), status and duration. */
  httpResponse(method: string, route: string, status: number, seconds: number): void;
  webhookAttempt(outcome: WebhookDeliveryOutcome): void;
  /** A sealing attempt failed: retried later, or (`final`) given up. */
  sealingFailure(job: SealingJob, final: boolean): void;
  jobRun(kind: string, outcome: JobRunOutcome): void;
  /** A checkout of a pooled database connection took `ms`. */
  dbAcquired(ms: number): void;
  watch(sources: MetricSources): void;
}

/** How long a job queue reading serves scrapes, and how long a scrape waits for a new one. */
const JOB_QUEUE_CACHE_MS = 5_000;
const JOB_QUEUE_SCRAPE_WAIT_MS = 2_000;

const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
const DB_ACQUIRE_BUCKETS = [0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10];
/** HTTP methods as labels; anything else (a method no route has) counts as `other`. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export interface MetricsOptions {
  /** ESIGN_RESTART_COUNT: how many times the supervisor restarted this process. */
  restarts: number;
  /** Overrides of the job queue timings (tests). */
  jobQueue?: { cacheMs?: number; waitMs?: number };
}

/** The registry and every metric of this process (default metrics included). */
export function createMetrics(opts: MetricsOptions): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const sources: MetricSources = {};

  new Gauge({
    name: 'esign_process_restarts',
    help: 'Times the supervisor has restarted this process so far (ESIGN_RESTART_COUNT)',
    registers,
  }).set(opts.restarts);

  const http = httpMetrics(registers);
  const webhooks = new Counter({
    name: 'esign_webhook_deliveries_total',
    help: 'Webhook delivery attempts made by this process, by outcome',
    labelNames: ['outcome'] as const,
    registers,
  });
  for (const outcome of ['succeeded', 'failed', 'retry', 'superseded'] as const)
    webhooks.labels(outcome).inc(0);
  const sealing = new Counter({
    name: 'esign_sealing_failures_total',
    help: 'Failed sealing attempts, by job and outcome (retry: tried again later; failed: given up)',
    labelNames: ['job', 'outcome'] as const,
    registers,
  });
  for (const job of ['request.seal', 'signer.copy'])
    for (const outcome of ['retry', 'failed']) sealing.labels(job, outcome).inc(0);
  const jobRuns = new Counter({
    name: 'esign_job_runs_total',
    help: "Jobs run by this process's worker, by kind and outcome (webhook attempts: esign_webhook_deliveries_total)",
    labelNames: ['kind', 'outcome'] as const,
    registers,
  });
  const acquire = new Histogram({
    name: 'esign_db_pool_acquire_seconds',
    help: 'Time to check out a pooled database connection (waiting for a free one, or opening one)',
    buckets: DB_ACQUIRE_BUCKETS,
    registers,
  });
  poolGauges(registers, sources);
  jobQueueGauges(registers, sources, opts.jobQueue ?? {});
  messageBacklogGauges(registers, sources, opts.jobQueue ?? {});

  return {
    exposition: () => registry.metrics(),
    contentType: registry.contentType,
    httpResponse: http,
    webhookAttempt: (outcome) => webhooks.labels(outcome).inc(),
    sealingFailure: (job, final) => sealing.labels(job, final ? 'failed' : 'retry').inc(),
    jobRun: (kind, outcome) => jobRuns.labels(kind, outcome).inc(),
    dbAcquired: (ms) => acquire.observe(ms / 1000),
    watch: (given) => void Object.assign(sources, given),
  };
}

/** Requests by route pattern and status, with their durations; returns the observer. */
function httpMetrics(registers: Registry[]): Metrics['httpResponse'] {
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({
    name: 'esign_http_requests_total',
    help: 'HTTP responses sent, by method, route pattern and status',
    labelNames,
    registers,
  });
  const duration = new Histogram({
    name: 'esign_http_request_duration_seconds',
    help: 'Time from request to response, by method, route pattern and status',
    labelNames,
    buckets: HTTP_BUCKETS,
    registers,
  });
  // One pair of labelled children per method, route and status seen (the routes are a fixed set).
  const children = new Map<string, { count: Counter.Internal; time: Histogram.Internal<string> }>();
  return (method, route, status, seconds) => {
    const m = METHODS.has(method) ? method : 'other';
    const key = `${m} ${status} ${route}`;
    let child = children.get(key);
    if (!child) {
      const labels = [m, route, String(status)];
      child = { count: requests.labels(...labels), time: duration.labels(...labels) };
      children.set(key, child);
    }
    child.count.inc();
    child.time.observe(seconds);
  };
}

/** The database pool's and the document pool's gauges, read at each scrape. */
function poolGauges(registers: Registry[], sources: MetricSources): void {
  const gauge = (name: string, help: string, read: () => number | undefined) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        const value = read();
        if (value !== undefined) this.set(value);
      },
    });
  gauge('esign_db_pool_max', 'Most connections the database pool opens', () => sources.dbPool?.().max);
  gauge('esign_db_pool_total', 'Open connections of the database pool', () => sources.dbPool?.().total);
  gauge('esign_db_pool_idle', 'Idle connections of the database pool', () => sources.dbPool?.().idle);
  gauge(
    'esign_db_pool_waiting',
    'Queries waiting for a database connection (all in use)',
    () => sources.dbPool?.().waiting,
  );
  const doc = () => sources.documentPool?.();
  gauge('esign_document_pool_size', 'Documents the document pool runs at once, at most', () => doc()?.size);
  gauge('esign_document_pool_running', 'Documents being processed now', () => doc()?.running);
  gauge('esign_document_pool_queued', 'Documents waiting for a document worker', () => doc()?.queued);
  gauge(
    'esign_document_pool_workers',
    'Document worker processes alive (busy or kept warm)',
    () => doc()?.workers,
  );
  gauge(
    'esign_document_pool_resident_bytes',
    'Resident memory of the document worker processes together',
    () => doc()?.residentBytes,
  );
}

/**
 * The job queue per kind, from one query at most every `cacheMs` however often it is scraped; a
 * scrape waits at most `waitMs` for it. When the database cannot answer, the scrape still
 * succeeds: esign_job_queue_up is 0 and the per-kind series are left out (not stale values).
 */
function jobQueueGauges(
  registers: Registry[],
  sources: MetricSources,
  timing: { cacheMs?: number; waitMs?: number },
): void {
  const read = cachedRead(
    async () => {
      const at = new Date();
      return { at, rows: sources.jobQueue ? await sources.jobQueue(at) : [] };
    },
    timing.cacheMs ?? JOB_QUEUE_CACHE_MS,
    timing.waitMs ?? JOB_QUEUE_SCRAPE_WAIT_MS,
  );
  const perKind = (name: string, help: string, value: (row: JobQueueRow | undefined, at: Date) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['kind'] as const,
      registers,
      async collect() {
        const got = await read();
        this.reset();
        if (!got.ok) return;
        const rows = new Map(got.value.rows.map((r) => [r.kind, r]));
        for (const kind of new Set([...(sources.jobKinds ?? []), ...rows.keys()]))
          this.labels(kind).set(value(rows.get(kind), got.value.at));
      },
    });
  perKind(
    'esign_jobs_pending',
    'Jobs due and waiting for a worker (abandoned ones included)',
    (r) => r?.pending ?? 0,
  );
  perKind('esign_jobs_running', 'Jobs a live worker is running', (r) => r?.running ?? 0);
  perKind('esign_jobs_oldest_pending_age_seconds', 'How long the oldest due job has waited', (r, at) =>
    r?.oldestPendingAt ? Math.max(0, (at.getTime() - r.oldestPendingAt.getTime()) / 1000) : 0,
  );
  new Gauge({
    name: 'esign_job_queue_up',
    help: '1 when the last reading of the job queue succeeded, 0 when the database did not answer in time',
    registers,
    async collect() {
      this.set((await read()).ok ? 1 : 0);
    },
  });
}

/**
 * The outboxes' backlog per channel (mail, sms), read like the job queue: at most once every
 * `cacheMs`, a scrape waiting at most `waitMs`; when the database cannot answer, the series are
 * left out.
 */
function messageBacklogGauges(
  registers: Registry[],
  sources: MetricSources,
  timing: { cacheMs?: number; waitMs?: number },
): void {
  const read = cachedRead(
    async () => ({ at: new Date(), rows: sources.messageBacklog ? await sources.messageBacklog() : [] }),
    timing.cacheMs ?? JOB_QUEUE_CACHE_MS,
    timing.waitMs ?? JOB_QUEUE_SCRAPE_WAIT_MS,
  );
  const perChannel = (name: string, help: string, value: (row: MessageBacklogRow, at: Date) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['channel'] as const,
      registers,
      async collect() {
        const got = await read();
        this.reset();
        if (!got.ok) return;
        for (const row of got.value.rows) this.labels(row.channel).set(value(row, got.value.at));
      },
    });
  perChannel(
    'esign_messages_waiting',
    'Emails or SMS not delivered yet and being retried (queued or failed)',
    (r) => r.waiting,
  );
  perChannel(
    'esign_messages_undeliverable',
    'Emails or SMS given up after their retry window (esign mail retry / esign sms retry)',
    (r) => r.undeliverable,
  );
  perChannel(
    'esign_messages_oldest_waiting_age_seconds',
    'How long ago the oldest email or SMS still waiting was written',
    (r, at) => (r.oldestWaitingAt ? Math.max(0, (at.getTime() - r.oldestWaitingAt.getTime()) / 1000) : 0),
  );
}
