import { join, resolve } from 'node:path';
import { type Db, migrateToLatest, openDatabase } from '@esign/db';
import { configureDocumentPool, documentPoolStats } from '@esign/pdf/pool';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { type CoreDeps, createCoreDeps } from './context.ts';
import { jobHandlers } from './jobs.ts';
import { createLogger } from './logger.ts';
import { createMetrics, type Metrics } from './metrics/metrics.ts';
import { serveMetrics } from './metrics/server.ts';
import { readJobQueue } from './services/jobs.ts';

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
    const { applied } = await migrateToLatest(database.db);
    if (applied.length) logger.info({ applied }, 'migrations applied');
  }
  configureDocumentPool({
    size: config.DOCUMENT_WORKERS,
    timeoutMs: config.DOCUMENT_TIMEOUT_SECONDS * 1000,
    maxHeapMb: config.DOCUMENT_MEMORY_MB,
  });
  metrics?.watch({
    dbPool: database.poolStats,
    documentPool: documentPoolStats,
    jobQueue: (now) => readJobQueue(database.db, now),
    jobKinds: Object.keys(jobHandlers),
  });
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
      await database.close();
      await served?.close();
    },
  };
}

/**
 * Stops a process on SIGINT or SIGTERM: `stop` runs once (a second signal while it runs does
 * nothing), then the process exits 0.
 */
export function stopOnSignal(stop: (signal: NodeJS.Signals) => Promise<void>): void {
  let stopping = false;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, async () => {
      if (stopping) return;
      stopping = true;
      await stop(signal);
      process.exit(0);
    });
  }
}
