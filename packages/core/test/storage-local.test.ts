import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileNotFoundError, LocalFileStore } from '../src/services/storage.ts';

// The local store's copyToFile: how a seal hands a stored original to the document pool without
// reading it into the process (issue 18). The S3 store's is tested against s3rver.

const dir = mkdtempSync(join(tmpdir(), 'esign-storage-local-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const store = new LocalFileStore(join(dir, 'files'));

describe('LocalFileStore.copyToFile', () => {
  it('copies the stored bytes to the path; a missing key is FileNotFoundError and creates nothing', async () => {
    const bytes = new Uint8Array(300_000).map((_, i) => (i * 7) % 251);
    await store.put('templates/1/a.pdf', bytes);
    const copy = join(dir, 'copy.bin');
    await store.copyToFile('templates/1/a.pdf', copy);
    expect(readFileSync(copy).equals(Buffer.from(bytes))).toBe(true);
    // The copy is private (it goes to the system's temporary folder), whatever the stored file's mode.
    expect(statSync(copy).mode & 0o777).toBe(0o600);
    // Never written through something already at the path (a planted link).
    symlinkSync(join(dir, 'elsewhere.bin'), join(dir, 'link.bin'));
    await expect(store.copyToFile('templates/1/a.pdf', join(dir, 'link.bin'))).rejects.toMatchObject({
      code: 'EEXIST',
    });
    expect(existsSync(join(dir, 'elsewhere.bin'))).toBe(false);

    const missing = join(dir, 'missing.bin');
    await expect(store.copyToFile('templates/1/none.pdf', missing)).rejects.toBeInstanceOf(FileNotFoundError);
    expect(existsSync(missing)).toBe(false);
  });

  it('a key that leaves the storage folder is refused', async () => {
    await expect(store.copyToFile('../../etc/passwd', join(dir, 'x'))).rejects.toThrow(/invalid storage key/);
  });
});
