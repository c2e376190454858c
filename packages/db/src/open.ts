import { createDb, type Db } from './connection.ts';
import { type EmbeddedServerEvent, startEmbeddedPostgres } from './embedded.ts';

export interface OpenDatabase {
  db: Db;
  url: string;
  embedded: boolean;
  /** The embedded cluster's data directory (unset with DATABASE_URL). */
  location?: string;
  close(): Promise<void>;
}

/** DATABASE_URL when set, else the embedded PostgreSQL under DATA_DIR (kept running while open). */
export async function openDatabase(opts: {
  databaseUrl?: string;
  dataDir: string;
  poolSize?: number;
  applicationName?: string;
  onLog?: (line: string) => void;
  /** A pooled connection was lost while idle (the pool replaces it). */
  onConnectionLost?: (err: Error) => void;
  /** The embedded server this process runs stopped, was restarted, or could not be yet. */
  onServerEvent?: (e: EmbeddedServerEvent) => void;
}): Promise<OpenDatabase> {
  const pool = {
    max: opts.poolSize,
    applicationName: opts.applicationName,
    onConnectionLost: opts.onConnectionLost,
  };
  if (opts.databaseUrl) {
    const db = createDb(opts.databaseUrl, pool);
    return { db, url: opts.databaseUrl, embedded: false, close: () => db.destroy() };
  }
  const server = await startEmbeddedPostgres(opts.dataDir, {
    onLog: opts.onLog,
    onServerEvent: opts.onServerEvent,
  });
  const db = createDb(server.url, pool);
  return {
    db,
    url: server.url,
    embedded: true,
    location: server.dir,
    close: async () => {
      await db.destroy();
      await server.stop();
    },
  };
}
