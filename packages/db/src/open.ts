import { createDb, type Db } from './connection.ts';
import { startEmbeddedPostgres } from './embedded.ts';

export interface OpenDatabase {
  db: Db;
  url: string;
  embedded: boolean;
  /** The embedded cluster's data directory (unset with DATABASE_URL). */
  location?: string;
  close(): Promise<void>;
}

/** DATABASE_URL when set, else the embedded PostgreSQL under DATA_DIR. */
export async function openDatabase(opts: {
  databaseUrl?: string;
  dataDir: string;
  poolSize?: number;
  applicationName?: string;
  onLog?: (line: string) => void;
}): Promise<OpenDatabase> {
  if (opts.databaseUrl) {
    const db = createDb(opts.databaseUrl, { max: opts.poolSize, applicationName: opts.applicationName });
    return { db, url: opts.databaseUrl, embedded: false, close: () => db.destroy() };
  }
  const server = await startEmbeddedPostgres(opts.dataDir, { onLog: opts.onLog });
  const db = createDb(server.url, { max: opts.poolSize, applicationName: opts.applicationName });
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
