import { createHash, randomBytes } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { get } from 'node:http';
import { Transform } from 'node:stream';
import { type FileStore, type StoredFileStream, signFileLink } from '@esign/core/testing';
import type { TestApp } from './app.ts';

// Issue 18: downloads stream from storage to the response. These helpers count the bytes a store
// hands out (whole files from `get`, chunks as they are read from `open`'s stream) and download a
// file while pausing the client, so a test sees whether the server read the file ahead of the client.

export interface CountingStore extends FileStore {
  /** Bytes read from the underlying store so far. */
  readonly bytesRead: number;
}

/** `store` with every byte read out of it counted. */
export function countingStore(store: FileStore): CountingStore {
  let bytesRead = 0;
  const counted = (file: StoredFileStream): StoredFileStream => {
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        bytesRead += chunk.length;
        done(null, chunk);
      },
    });
    file.body.on('error', (err) => counter.destroy(err));
    counter.on('close', () => file.body.destroy());
    return { body: file.body.pipe(counter), size: file.size };
  };
  return {
    get bytesRead() {
      return bytesRead;
    },
    put: (key, bytes, type) => store.put(key, bytes, type),
    get: async (key) => {
      const bytes = await store.get(key);
      bytesRead += bytes.length;
      return bytes;
    },
    open: async (key) => counted(await store.open(key)),
    copyToFile: async (key, path) => {
      await store.copyToFile(key, path);
      bytesRead += (await stat(path)).size;
    },
    exists: (key) => store.exists(key),
    delete: (key) => store.delete(key),
  };
}

export interface PausedDownload {
  status: number;
  contentLength: number;
  /** Bytes the store had handed out while the client had read one chunk and then paused. */
  readWhilePaused: number;
  received: number;
  sha256: string;
}

/**
 * Stores `size` random bytes at `key`, then downloads them through a signed /files link: reads
 * the first chunk, pauses for `pauseMs` (noting how much the store has handed out by then), then
 * reads the rest.
 */
export async function pausedDownload(
  t: TestApp,
  store: CountingStore,
  key: string,
  size: number,
  pauseMs = 800,
): Promise<PausedDownload & { expectedSha256: string }> {
  const bytes = randomBytes(size);
  const expectedSha256 = createHash('sha256').update(bytes).digest('hex');
  await store.put(key, bytes, 'application/pdf');
  const url = signFileLink(t.config, { k: key, t: 'application/pdf', n: 'large.pdf' }, { now: new Date() });
  const before = store.bytesRead;
  return new Promise((resolve, reject) => {
    get(url, (res) => {
      const hash = createHash('sha256');
      let received = 0;
      let readWhilePaused = -1;
      let paused = false;
      res.on('data', (chunk: Buffer) => {
        received += chunk.length;
        hash.update(chunk);
        if (paused) return;
        paused = true;
        res.pause();
        setTimeout(() => {
          readWhilePaused = store.bytesRead - before;
          res.resume();
        }, pauseMs);
      });
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          contentLength: Number(res.headers['content-length']),
          readWhilePaused,
          received,
          sha256: hash.digest('hex'),
          expectedSha256,
        }),
      );
    }).on('error', reject);
  });
}
