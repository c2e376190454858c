import { join, resolve } from 'node:path';
import { type Db, migrateToLatest, openDatabase } from '@esign/db';
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
  });
  if (database.location && database.location !== join(resolve(config.DATA_DIR), 'db'))
    logger.info({ postgres: database.location }, 'embedded PostgreSQL keeps its data outside DATA_DIR');
  if (opts.migrate) {
    const { applied } = await migrateToLatest(database.db);
    if (applied.length) logger.info({ applied }, 'migrations applied');
  }
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
