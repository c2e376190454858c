import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalFileStore, signFileLink } from '@esign/core/testing';
import { type CountingStore, countingStore, pausedDownload } from '@esign/testing/file-streams';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test/harness.ts';

// Issue 18: "stream large files to and from storage instead of holding several copies in memory".
// A signed /files link to a stored document is answered from a stream of the stored file, read
// at the client's pace: before, the whole file was read into memory first (a 25 MB sealed
// document was 25 MB more in the process answering HTTP, per download).

const MB = 1024 * 1024;
let t: TestApp;
let store: CountingStore;

beforeAll(async () => {
  store = countingStore(new LocalFileStore(join(mkdtempSync(join(tmpdir(), 'esign-stream-')), 'files')));
  t = await startTestApp({}, { storage: store });
});
afterAll(async () => {
  await t?.close();
});

describe('GET /files/{token}/{name} streams the stored file (issue 18)', () => {
  it('a 40 MB stored file: with the client paused after its first chunk, far less than the file has been read from disk; then every byte arrives, with its Content-Length', {
    timeout: 60_000,
  }, async () => {
    const size = 40 * MB;
    const d = await pausedDownload(t, store, 'requests/1/large.pdf', size);
    console.log(
      `40 MB download: ${(d.readWhilePaused / MB).toFixed(1)} MB read from disk while the client paused`,
    );
    expect(d.status).toBe(200);
    expect(d.contentLength).toBe(size);
    // Buffered, the whole 40 MB had been read before the first byte was sent.
    expect(d.readWhilePaused).toBeGreaterThan(0);
    expect(d.readWhilePaused).toBeLessThan(12 * MB);
    expect(d.received).toBe(size);
    expect(d.sha256).toBe(d.expectedSha256);
  });

  it('a link to a file no longer in storage is an error answer, not a cut-off 200', async () => {
    const key = 'requests/1/gone.pdf';
    const url = signFileLink(t.config, { k: key, t: 'application/pdf', n: 'gone.pdf' }, { now: new Date() });
    const res = await fetch(url);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.headers.get('content-type')).toContain('application/json');
  });
});
