import { createDbPool, type Db, type PoolStats } from './connection.ts';
import { type EmbeddedServerEvent, startEmbeddedPostgres } from './embedded.ts';

export interface OpenDatabase {
  db: Db;
  url: string;
  embedded: boolean;
  /** The embedded cluster's data directory (unset with DATABASE_URL). */
  location?: string;
  /** What the connection pool is doing now (metrics). */
  poolStats(): PoolStats;
  close(): Promise<void>;
}

/** DATABASE_URL when set, else the embedded PostgreSQL under DATA_DIR (kept running while open). */
export async function openDatabase(opts: {
  databaseUrl?: string;
  dataDir: string;
  poolSize?: number;
  applicationName?: string;
  onLog?: (line: string) => void;
  /** Longest a connection checkout may take (DbOptions.acquireTimeoutMs). */
  acquireTimeoutMs?: number;
  /** Longest one statement may take (DbOptions.statementTimeoutMs); unset: no limit. */
  statementTimeoutMs?: number;
  /** A pooled connection was lost while idle (the pool replaces it). */
  onConnectionLost?: (err: Error) => void;
  /** How long each checkout of a pooled connection took, in ms (metrics). */
  onAcquire?: (ms: number) => void;
  /** The embedded server this process runs stopped, was restarted, or could not be yet. */
  onServerEvent?: (e: EmbeddedServerEvent) => void;
}): Promise<OpenDatabase> {
  const pool = {
    max: opts.poolSize,
    applicationName: opts.applicationName,
    onConnectionLost: opts.onConnectionLost,
    onAcquire: opts.onAcquire,
    acquireTimeoutMs: opts.acquireTimeoutMs,
    statementTimeoutMs: opts.statementTimeoutMs,
  };
  if (opts.databaseUrl) {
    const { db, stats } = createDbPool(opts.databaseUrl, pool);
    return { db, url: opts.databaseUrl, embedded: false, poolStats: stats, close: () => db.destroy() };
  }
  const server = await startEmbeddedPostgres(opts.dataDir, {
    onLog: opts.onLog,
    onServerEvent: opts.onServerEvent,
  });
  const { db, stats } = createDbPool(server.url, pool);
  return {
    db,
    url: server.url,
    embedded: true,
    location: server.dir,
    poolStats: stats,
    close: async () => {
      await db.destroy();
      await server.stop();
    },
  };
}
