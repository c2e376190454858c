import { join, resolve } from 'node:path';
import { createDb, type Db, migrateToLatest, openDatabase } from '@esign/db';
import { configureDocumentPool, documentPoolStats } from '@esign/pdf/pool';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { type CoreDeps, createCoreDeps } from './context.ts';
import { jobHandlers } from './jobs.ts';
import { createLogger } from './logger.ts';
import { createMetrics, type Metrics } from './metrics/metrics.ts';
import { serveMetrics } from './metrics/server.ts';
import { readJobQueue } from './services/jobs.ts';
import { readMessageBacklog } from './services/outbox-retry.ts';
import { sweepUploads } from './services/upload-files.ts';

/** Where every process listens: its HTTP port and its metrics port (METRICS_PORT). */
export const LISTEN_HOST = '0.0.0.0';

export interface Runtime {
  db: Db;
  logger: Logger;
  config: Config;
  deps: CoreDeps;
  embedded: boolean;
  /** The database's connection string (the worker opens its LISTEN connection with it). */
  url?: string;
  /** The process's metrics, served on METRICS_PORT (unset: none are kept). */
  metrics?: Metrics;
  close(): Promise<void>;
}

/** The metrics of a process and their port, when METRICS_PORT is set (README, "Monitoring"). */
async function startMetrics(config: Config, logger: Logger) {
  if (config.METRICS_PORT === undefined) return null;
  const metrics = createMetrics({ restarts: config.ESIGN_RESTART_COUNT });
  const server = await serveMetrics(metrics, { port: config.METRICS_PORT, host: LISTEN_HOST, logger });
  return { metrics, close: server.close };
}

/** What every process entry needs: logger, database (embedded by default), collaborators. */
export async function createRuntime(
  config: Config,
  name: string,
  opts: { migrate?: boolean } = {},
): Promise<Runtime> {
  const logger = createLogger(config.LOG_LEVEL, name);
  // First, so a process that waits for its database can be seen waiting.
  const served = await startMetrics(config, logger);
  const metrics = served?.metrics;
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    applicationName: `esign-${name}`,
    acquireTimeoutMs: config.DATABASE_ACQUIRE_TIMEOUT_SECONDS * 1000,
    statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_SECONDS * 1000,
    onLog: (line) => logger.debug({ postgres: line }),
    onConnectionLost: (err) => logger.warn({ err }, 'database connection lost; the pool replaces it'),
    onAcquire: metrics && ((ms) => metrics.dbAcquired(ms)),
    onServerEvent: (e) => {
      if (e.event === 'exited') logger.error('embedded PostgreSQL stopped unexpectedly; restarting it');
      else if (e.event === 'restarted') logger.info('embedded PostgreSQL restarted');
      else logger.warn({ err: e.error, retryInMs: e.retryInMs }, 'embedded PostgreSQL did not start yet');
    },
  }).catch(async (err: unknown) => {
    await served?.close();
    throw err;
  });
  if (database.location && database.location !== join(resolve(config.DATA_DIR), 'db'))
    logger.info({ postgres: database.location }, 'embedded PostgreSQL keeps its data outside DATA_DIR');
  if (opts.migrate) {
    // On a connection of their own without the statement timeout: a migration may rewrite a large
    // table for minutes.
    const migrating = createDb(database.url, { max: 1, applicationName: `esign-${name}-migrate` });
    try {
      const { applied } = await migrateToLatest(migrating);
      if (applied.length) logger.info({ applied }, 'migrations applied');
    } finally {
      await migrating.destroy();
    }
  }
  configureDocumentPool({
    size: config.DOCUMENT_WORKERS,
    timeoutMs: config.DOCUMENT_TIMEOUT_SECONDS * 1000,
    maxHeapMb: config.DOCUMENT_MEMORY_MB,
    streamInflatedMb: config.DOCUMENT_STREAM_INFLATED_MB,
    inflatedMb: config.DOCUMENT_INFLATED_MB,
  });
  metrics?.watch({
    dbPool: database.poolStats,
    documentPool: documentPoolStats,
    jobQueue: (now) => database.db.transaction().execute((tx) => readJobQueue(tx, now)),
    jobKinds: Object.keys(jobHandlers),
    messageBacklog: () => database.db.transaction().execute((tx) => readMessageBacklog(tx)),
  });
  const sweeper = sweepUploadsNowAndThen(join(config.DATA_DIR, 'uploads'), logger);
  const deps: CoreDeps = { ...createCoreDeps(config), ...(metrics ? { metrics } : {}) };
  return {
    db: database.db,
    logger,
    config,
    deps,
    embedded: database.embedded,
    url: database.url,
    ...(metrics ? { metrics } : {}),
    close: async () => {
      clearInterval(sweeper);
      await database.close();
      await served?.close();
    },
  };
}

const SWEEP_UPLOADS_EVERY_MS = 10 * 60 * 1000;

/**
 * Removes upload files that a process which died mid-request left in DATA_DIR/uploads, now and
 * every ten minutes (core services/upload-files.ts says which are orphans).
 */
function sweepUploadsNowAndThen(dir: string, logger: Logger): NodeJS.Timeout {
  const sweep = () =>
    sweepUploads(dir).then(
      (removed) => {
        if (removed > 0) logger.info({ removed, dir }, 'removed upload files left by a stopped process');
      },
      (err: unknown) => logger.warn({ err, dir }, 'sweeping orphaned upload files failed'),
    );
  sweep().catch(() => {}); // sweep logs its own failure
  const timer = setInterval(sweep, SWEEP_UPLOADS_EVERY_MS);
  timer.unref();
  return timer;
}

/** A part of a process that a shutdown stops (an HTTP server, a job worker). */
export interface StoppablePart {
  /** Stop taking new work at once (readiness 503, no new job claims); serving goes on meanwhile. */
  drain?(): void;
  /** Finish the work in flight, then stop. */
  stop(): Promise<void>;
  /** The deadline passed: end whatever is still running (open connections). */
  force?(): void;
}

/** How long ended work and the database get to close after the shutdown deadline. */
const FORCED_STOP_MS = 5_000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Stops the process cleanly on SIGTERM or SIGINT, losing no work: every part stops taking new work
 * (the HTTP parts answer /readyz 503 and close each connection after its response), then, after
 * SHUTDOWN_DELAY_SECONDS for SIGTERM (load balancers notice the 503; an interactive SIGINT does not
 * wait), the parts finish what is in flight, for at most SHUTDOWN_TIMEOUT_SECONDS: past it, what
 * still runs is ended (jobs keep their leases, so another worker takes them over). Then the
 * database closes and the process exits 0. A second signal exits at once (1). A process started
 * with an IPC channel (apps/server/src/supervisor.ts) stops the same way when that channel closes.
 */
export function shutdownOnSignal(rt: Runtime, parts: StoppablePart[]): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      rt.logger.warn({ signal }, 'second signal: exiting without waiting for the work in flight');
      process.exit(1);
    }
    stopping = true;
    shutdown(rt, parts, signal).then(
      () => process.exit(0),
      (err: unknown) => {
        rt.logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  // Started by a supervisor with an IPC channel (npm start): if the supervisor is gone, stop too.
  if (process.send) process.once('disconnect', () => onSignal('SIGTERM'));
}

async function shutdown(rt: Runtime, parts: StoppablePart[], signal: NodeJS.Signals): Promise<void> {
  const { SHUTDOWN_DELAY_SECONDS: delay, SHUTDOWN_TIMEOUT_SECONDS: timeout } = rt.config;
  rt.logger.info({ signal }, 'shutting down: taking no new work, finishing the work in flight');
  for (const p of parts) p.drain?.();
  if (signal === 'SIGTERM' && delay > 0) await sleep(delay * 1000);
  const finished = Promise.allSettled(parts.map((p) => p.stop()));
  const late = Symbol('late');
  let results = await Promise.race([finished, sleep(timeout * 1000).then(() => late)]);
  if (results === late) {
    rt.logger.warn({ timeoutSeconds: timeout }, 'shutdown: work still running at the deadline is ended');
    for (const p of parts) p.force?.();
    results = await Promise.race([finished, sleep(FORCED_STOP_MS).then(() => late)]);
  }
  if (Array.isArray(results))
    for (const r of results)
      if (r.status === 'rejected') rt.logger.warn({ err: r.reason }, 'a part stopped with an error');
  await Promise.race([rt.close(), sleep(FORCED_STOP_MS)]);
  rt.logger.info('stopped');
}
