import { join, resolve } from 'node:path';
import { type Db, migrateToLatest, openDatabase } from '@esign/db';
import { configureDocumentPool } from '@esign/pdf/pool';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { type CoreDeps, createCoreDeps } from './context.ts';
import { createLogger } from './logger.ts';

export interface Runtime {
  db: Db;
  logger: Logger;
  config: Config;
  deps: CoreDeps;
  embedded: boolean;
  /** The database's connection string (the worker opens its LISTEN connection with it). */
  url?: string;
  close(): Promise<void>;
}

/** What every process entry needs: logger, database (embedded by default), collaborators. */
export async function createRuntime(
  config: Config,
  name: string,
  opts: { migrate?: boolean } = {},
): Promise<Runtime> {
  const logger = createLogger(config.LOG_LEVEL, name);
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    applicationName: `esign-${name}`,
    onLog: (line) => logger.debug({ postgres: line }),
    onConnectionLost: (err) => logger.warn({ err }, 'database connection lost; the pool replaces it'),
    onServerEvent: (e) => {
      if (e.event === 'exited') logger.error('embedded PostgreSQL stopped unexpectedly; restarting it');
      else if (e.event === 'restarted') logger.info('embedded PostgreSQL restarted');
      else logger.warn({ err: e.error, retryInMs: e.retryInMs }, 'embedded PostgreSQL did not start yet');
    },
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
  const deps: CoreDeps = createCoreDeps(config);
  return {
    db: database.db,
    logger,
    config,
    deps,
    embedded: database.embedded,
    url: database.url,
    close: database.close,
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
