/**
 * Names of the files uploads are written to while a request runs (DATA_DIR/uploads), and the sweep
 * that removes what a process left there when it died mid-request (kill -9, a crash, a lost host).
 * Imports nothing of the service: the JSON parser's thread names its files with it too.
 *
 * Each file's name carries its owner, `<host>~<pid>~<uuid>.upload`, so a process can tell the files
 * of a process of its host that no longer runs (removed at once) from those of a living one (left
 * alone; its request removes them). A file untouched for an hour is removed whoever wrote it: no
 * request takes that long, and processes on other hosts sharing DATA_DIR are judged that way.
 */
import { randomUUID } from 'node:crypto';
import { readdir, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';

const HOST = hostname().replace(/[^\w.-]/g, '_') || 'host';
const OWNER = `${HOST}~${process.pid}`;
/** Past this age an upload file belongs to no request, whoever wrote it. */
export const ORPHAN_UPLOAD_AGE_MS = 60 * 60 * 1000;

/** A new file name for an upload of this process. */
export function uploadFileName(): string {
  return `${OWNER}~${randomUUID()}.upload`;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but is another user's.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whose file it is: this host's dead process, a living or unknown owner, or not an upload at all. */
function ownerGone(name: string): boolean {
  const m = /^(.+)~(\d+)~[\w-]+\.upload$/.exec(name);
  if (!m || m[1] !== HOST) return false;
  const pid = Number(m[2]);
  return pid !== process.pid && !alive(pid);
}

/**
 * Removes the upload files under `dir` whose process is gone (same host) or that were untouched for
 * ORPHAN_UPLOAD_AGE_MS (older versions' files, other hosts'); returns how many it removed.
 */
export async function sweepUploads(dir: string, now = Date.now()): Promise<number> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.endsWith('.upload')) continue;
    const path = join(dir, name);
    const orphan =
      ownerGone(name) ||
      (await stat(path).then(
        (s) => s.isFile() && now - s.mtimeMs > ORPHAN_UPLOAD_AGE_MS,
        () => false,
      ));
    if (
      orphan &&
      (await unlink(path).then(
        () => true,
        () => false,
      ))
    )
      removed++;
  }
  return removed;
}
