/**
 * What `npm start` runs: keeps the all-in-one service (main.ts) up as a process manager would.
 *
 * - The service runs as a child in a process group of its own, with an IPC channel: should this
 *   supervisor die, the channel closes and the service stops as on SIGTERM (never an orphan
 *   holding the port).
 * - SIGTERM and SIGINT are passed on to it (a terminal's Ctrl-C reaches only this process and npm,
 *   whose copy of it counts once); the supervisor then waits for its clean stop and exits with its
 *   code.
 * - When it exits on its own with a failure (a crash, an out-of-memory kill, kill -9), it is started
 *   again after a back-off that doubles from 1 s to 30 s while it keeps failing within a minute of
 *   its start, and goes back to 1 s once it has run for a minute: never a tight loop. Each restart
 *   is logged with the exit code or signal, and the service is told its restart count
 *   (`ESIGN_RESTART_COUNT`, for its metrics).
 * - An exit with code 0 that nobody asked for (someone sent SIGTERM to the service itself) is a
 *   stop, as with systemd's Restart=on-failure.
 * - An exit with CONFIG_ERROR_EXIT_CODE (78: a bad setting, the web build missing) is not
 *   restarted either: the supervisor exits with that code, after the service's message naming
 *   the variable (systemd's RestartPreventExitStatus=78 in the README does the same).
 * - Should the process that started it go away (npm's process and its `sh` end on a SIGTERM
 *   without passing it on), the supervisor is an orphan: it stops the service as on SIGTERM and
 *   exits, rather than keep the port of the next `npm start`.
 *
 * It imports nothing of the service but pino, so it stays small (one Node process, about 60 MB
 * resident, against the service's 200 MB and more).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CONFIG_ERROR_EXIT_CODE } from '@esign/core/exit-codes';
import pino from 'pino';

const SERVICE = fileURLToPath(new URL('./main.ts', import.meta.url));
const FIRST_DELAY_MS = 1_000;
const MAX_DELAY_MS = 30_000;
/** A service that ran this long before it failed was healthy: the back-off starts over. */
const STABLE_MS = 60_000;

const log = pino({ name: 'supervisor', level: 'info' });

let child: ChildProcess | null = null;
let stopping: NodeJS.Signals | null = null;
let restarts = 0;
let delay = FIRST_DELAY_MS;
let waiting: NodeJS.Timeout | null = null;

function start(): void {
  const startedAt = Date.now();
  const service = spawn(process.execPath, [...process.execArgv, SERVICE, ...process.argv.slice(2)], {
    env: { ...process.env, ESIGN_RESTART_COUNT: String(restarts) },
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    detached: true,
  });
  child = service;
  service.on('error', (err) => log.error({ err }, 'the service could not be started'));
  service.once('exit', (code, signal) => {
    child = null;
    if (stopping) process.exit(code ?? 1);
    if (code === 0) {
      log.info('the service stopped (exit code 0); not restarting it');
      process.exit(0);
    }
    if (code === CONFIG_ERROR_EXIT_CODE) {
      log.error({ exitCode: code }, 'the service cannot start with this configuration; not restarting it');
      process.exit(CONFIG_ERROR_EXIT_CODE);
    }
    const ranMs = Date.now() - startedAt;
    if (ranMs >= STABLE_MS) delay = FIRST_DELAY_MS;
    restarts += 1;
    log.error(
      { exitCode: code, signal, ranMs, restarts, restartInMs: delay },
      'the service exited unexpectedly; restarting it',
    );
    waiting = setTimeout(() => {
      waiting = null;
      start();
    }, delay);
    delay = Math.min(delay * 2, MAX_DELAY_MS);
  });
}

/** When the last signal was passed on (see forward). */
let forwardedAt = 0;
/**
 * One stop often arrives twice: Ctrl-C signals the whole foreground group and npm passes its own
 * signal on to this process too. Only a signal a second or more after the last one passed on is a
 * new one (a second Ctrl-C: the service then exits at once).
 */
const DUPLICATE_WITHIN_MS = 1_000;

function forward(signal: NodeJS.Signals): void {
  if (Date.now() - forwardedAt < DUPLICATE_WITHIN_MS) return;
  forwardedAt = Date.now();
  if (!stopping) log.info({ signal }, 'stopping the service');
  stopping = signal;
  if (waiting) {
    // Between two runs: nothing to stop.
    clearTimeout(waiting);
    process.exit(0);
  }
  child?.kill(signal);
}

/** How often the supervisor checks that the process that started it is still there. */
const PARENT_CHECK_MS = 500;
const parent = process.ppid;
const parentWatch = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(parentWatch);
  // Already stopping (the same signal reached us too): a second one would end the service at once.
  if (stopping) return;
  log.warn({ parent }, 'the process that started the supervisor is gone; stopping');
  forward('SIGTERM');
}, PARENT_CHECK_MS);
parentWatch.unref();

process.on('SIGTERM', forward);
process.on('SIGINT', forward);
start();
