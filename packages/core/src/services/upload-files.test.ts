import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ORPHAN_UPLOAD_AGE_MS, sweepUploads, uploadFileName } from './upload-files.ts';

// Issue 27.4: a partial upload left in DATA_DIR/uploads by a process killed mid-request is removed
// at the next start (and every ten minutes), while the files of living processes stay.

const host = hostname().replace(/[^\w.-]/g, '_') || 'host';
/** A pid that no process has any more: a child that has already exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '0']).pid;

describe('orphaned upload files (issue 27.4)', () => {
  it("a file of this host's process that is gone is removed at once; this process's own files, a living process's and other hosts' recent ones stay", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'esign-sweep-'));
    const own = uploadFileName();
    expect(own).toMatch(new RegExp(`^${host}~${process.pid}~[\\w-]+\\.upload$`));
    const dead = `${host}~${deadPid()}~${crypto.randomUUID()}.upload`;
    const living = `${host}~${process.ppid}~${crypto.randomUUID()}.upload`;
    const otherHost = `elsewhere~1~${crypto.randomUUID()}.upload`;
    const notOurs = 'readme.txt';
    for (const f of [own, dead, living, otherHost, notOurs]) writeFileSync(join(dir, f), 'partial');
    expect(await sweepUploads(dir)).toBe(1);
    expect(readdirSync(dir).sort()).toEqual([own, living, otherHost, notOurs].sort());
  });

  it('a file untouched for an hour is removed whoever wrote it (another host, an older version); a younger one stays', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'esign-sweep-'));
    const old = `elsewhere~1~${crypto.randomUUID()}.upload`;
    const legacy = `${crypto.randomUUID()}.upload`;
    const young = `elsewhere~2~${crypto.randomUUID()}.upload`;
    for (const f of [old, legacy, young]) writeFileSync(join(dir, f), 'x');
    const past = (Date.now() - ORPHAN_UPLOAD_AGE_MS - 60_000) / 1000;
    utimesSync(join(dir, old), past, past);
    utimesSync(join(dir, legacy), past, past);
    expect(await sweepUploads(dir)).toBe(2);
    expect(readdirSync(dir)).toEqual([young]);
  });

  it('no uploads folder yet: nothing to do', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'esign-sweep-')), 'uploads');
    expect(await sweepUploads(dir)).toBe(0);
    expect(existsSync(dir)).toBe(false);
  });
});
