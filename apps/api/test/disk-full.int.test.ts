import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTemplate } from '@esign/testing/fixtures';
import { b64, plainPdf, signatureField } from '@esign/testing/pdfs';
import { requirement } from '@esign/testing/requirements';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../../../test/harness.ts';

// Issue 41 item 2: a full disk under DATA_DIR (a 4 MB tmpfs this test mounts, as root) answers
// the calls that must write with `507 storage_full`, keeps serving reads, ends no process (a page
// image write refused while pages were still drawing was an unhandled rejection: exit 1), and
// leaves nothing behind once space returns.

vi.setConfig({ testTimeout: 180_000 });

function canMountTmpfs(): boolean {
  if (process.getuid?.() !== 0) return false;
  const probe = mkdtempSync(join(tmpdir(), 'esign-tmpfs-probe-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'ignore' });
    execFileSync('umount', [probe], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

const mountable = requirement(
  'root allowed to mount a tmpfs',
  canMountTmpfs(),
  'run the tests as root where `mount -t tmpfs` is allowed',
);

/** Every file under `dir`, relative. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
}

describe.runIf(mountable)('issue 41: a full disk', () => {
  let dir: string;
  let t: TestApp;
  let owner: TestAccount;
  const unhandled: unknown[] = [];
  const onUnhandled = (err: unknown) => unhandled.push(err);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'esign-full-disk-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', dir]);
    process.on('unhandledRejection', onUnhandled);
    t = await startTestApp({ DATA_DIR: dir });
    owner = await createTestAccount(t.db, { credits: 10 });
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await t?.close();
    execFileSync('umount', [dir]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes answer 507 storage_full, reads are served, no unhandled rejection, and nothing is left behind once space returns', async () => {
    const tpl = await makeTemplate(t, owner, { documents: [{ file: b64(await plainPdf(24)) }] });
    const doc = tpl.documents[0];
    // The page images drawn so far are dropped, so the next views draw (and must store) them again.
    for (const f of filesUnder(dir)) if (f.endsWith('.png')) rmSync(join(dir, f));

    // Fill the file system to the last byte.
    const filler = join(dir, 'filler');
    const free = statfsSync(dir).bavail * statfsSync(dir).bsize;
    try {
      writeFileSync(filler, Buffer.alloc(free + 4096));
    } catch (err) {
      expect((err as NodeJS.ErrnoException).code).toBe('ENOSPC');
    }
    const before = new Set(filesUnder(dir));

    const get = async (url: string) => {
      const res = await fetch(url);
      return {
        status: res.status,
        body: res.headers.get('content-type')?.includes('json') ? await res.json() : null,
      };
    };
    const newTemplate = async () =>
      t.api('POST', 'templates', {
        key: owner.key,
        body: { name: 'No room', documents: [{ file: b64(await plainPdf(3)) }], fields: [signatureField()] },
      });
    // Under load: views that draw pages (and store them), template uploads, and reads.
    const results = await Promise.all([
      ...Array.from({ length: 6 }, () => get(doc.preview_image_url)),
      ...Array.from({ length: 3 }, () => newTemplate()),
      ...Array.from({ length: 4 }, () => t.api('GET', `templates/${tpl.id}`, { key: owner.key })),
      ...Array.from({ length: 3 }, () => get(doc.url)),
    ]);
    const views = results.slice(0, 6);
    const uploads = results.slice(6, 9);
    const reads = results.slice(9);
    // A view is served from the drawn image, or refused clearly: never a 500.
    for (const v of views) expect([200, 507], JSON.stringify(v.body)).toContain(v.status);
    for (const u of uploads) {
      expect(u.status, JSON.stringify(u.body)).toBe(507);
      expect(u.body.error.code).toBe('storage_full');
    }
    for (const r of reads) expect(r.status).toBe(200);
    // Let the drawing of the prefetched pages (whose writes fail) finish.
    await new Promise((r) => setTimeout(r, 3000));
    expect(unhandled).toEqual([]);

    // Space returns: no temp file of a failed write is left, and writes work again.
    rmSync(filler);
    const left = filesUnder(dir).filter((f) => !before.has(f));
    expect(left.filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(filesUnder(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const again = await newTemplate();
    expect(again.status).toBe(201);
    expect((await get(doc.preview_image_url)).status).toBe(200);
  });
});
