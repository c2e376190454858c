import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PostgresBinaries, RunAs } from './postgres-binaries.ts';

export interface ClusterOptions {
  /** The cluster's data directory (PGDATA). */
  dir: string;
  binaries: PostgresBinaries;
  /** Set when we are root: PostgreSQL runs as this user, which owns `dir`. */
  runAs: RunAs | null;
  onLog?: (line: string) => void;
}

// initdb and postgres print English messages (we wait for one), whatever the machine's locale.
const env = () => ({ ...process.env, LC_MESSAGES: 'C' });

function run(cmd: string, args: string[], opts: ClusterOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { ...(opts.runAs ?? {}), env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (d: Buffer) => {
      output += d;
      opts.onLog?.(String(d));
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} failed (exit ${code}): ${output.trim()}`)),
    );
  });
}

/** A PostgreSQL data directory and, once started, its server process (a child of ours). */
export class PostgresCluster {
  private process: ChildProcess | null = null;

  private readonly opts: ClusterOptions;

  constructor(opts: ClusterOptions) {
    this.opts = opts;
  }

  get initialised(): boolean {
    return existsSync(join(this.opts.dir, 'PG_VERSION'));
  }

  /** initdb: superuser `user` with a SCRAM password, UTF-8, the data directory owned by runAs. */
  async initialise(user: string, password: string): Promise<void> {
    const { dir, runAs } = this.opts;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (runAs) chownSync(dir, runAs.uid, runAs.gid);
    chmodSync(dir, 0o700);
    // The password reaches initdb through a file only the server's user can read.
    const secretDir = mkdtempSync(join(tmpdir(), 'esign-initdb-'));
    const pwfile = join(secretDir, 'pw');
    writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
    if (runAs) {
      chownSync(secretDir, runAs.uid, runAs.gid);
      chownSync(pwfile, runAs.uid, runAs.gid);
    }
    try {
      await run(
        this.opts.binaries.initdb,
        [
          `--pgdata=${dir}`,
          '--auth=scram-sha-256',
          `--username=${user}`,
          `--pwfile=${pwfile}`,
          '--encoding=UTF8',
          '--lc-messages=C',
        ],
        this.opts,
      );
    } finally {
      rmSync(secretDir, { recursive: true, force: true });
    }
  }

  /** Starts the server on loopback `port`; resolves once it accepts connections. */
  async start(port: number, flags: string[] = [], timeoutMs = 120_000): Promise<void> {
    const args = ['-D', this.opts.dir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1'];
    // TCP only: no Unix socket in a folder the server's user may not be able to write.
    args.push('-c', 'unix_socket_directories=', ...flags);
    const child = spawn(this.opts.binaries.postgres, args, {
      ...(this.opts.runAs ?? {}),
      env: env(),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    this.process = child;
    // If this process ends without stop(), the server shuts down too (a fast shutdown).
    const onExit = () => child.kill('SIGINT');
    process.once('exit', onExit);
    child.once('exit', () => {
      process.removeListener('exit', onExit);
      if (this.process === child) this.process = null;
    });
    await new Promise<void>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => {
        child.kill('SIGINT');
        reject(new Error(`PostgreSQL did not start within ${timeoutMs / 1000} s: ${output.trim()}`));
      }, timeoutMs);
      let ready = false;
      child.stderr.on('data', (d: Buffer) => {
        this.opts.onLog?.(String(d));
        if (ready) return;
        output = (output + d).slice(-20_000);
        if (output.includes('database system is ready to accept connections')) {
          ready = true;
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`PostgreSQL exited while starting (exit ${code}): ${output.trim()}`));
      });
    });
  }

  /** Fast shutdown (SIGINT); resolves when the server has exited. */
  async stop(): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGINT');
    });
  }
}
