import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestDocument } from '../src/ingest/index.ts';
import { FILE_THRESHOLD, sendPrefixOf, spill, unspill } from '../src/ingest/ipc-files.ts';
import { makeLargePdf } from './ingest-fixtures.ts';

// Issue 18: a document crosses to and from the pool's worker processes as a temporary file, not
// inside the IPC message (which Node serializes, copies behind a header, and on receipt gathers
// and joins: several copies of a 25 MB document in the process answering HTTP).

const filesLeft = () =>
  readdirSync(tmpdir()).filter((f) => f.startsWith(basename(sendPrefixOf(process.pid))));

describe('large byte arrays cross to the document pool as files (issue 18)', () => {
  it('a task round-trips: large arrays (also nested and in lists) become file references, small ones and dates stay in the message, and each file is removed once read', async () => {
    const big = new Uint8Array(FILE_THRESHOLD + 1).map((_, i) => i % 251);
    const small = new Uint8Array([1, 2, 3]);
    const signedAt = new Date(Date.UTC(2026, 0, 5));
    const task = {
      op: 'combine',
      id: 7,
      bytes: big,
      more: [big, small],
      seal: { signedAt, pdf: big },
      small,
    };
    const { message, files } = await spill(task);
    expect(files).toHaveLength(3);
    expect(filesLeft()).toHaveLength(3);
    const sent = message as Record<string, any>;
    expect(sent.bytes).toEqual({ ipcFile: files[0] });
    expect(sent.more[1]).toBe(small);
    expect(sent.small).toBe(small);
    expect(sent.seal.signedAt).toBe(signedAt);
    const back = (await unspill(message)) as typeof task;
    expect(Buffer.from(back.bytes).equals(Buffer.from(big))).toBe(true);
    expect(Buffer.from(back.more[0]!).equals(Buffer.from(big))).toBe(true);
    expect(Buffer.from(back.seal.pdf).equals(Buffer.from(big))).toBe(true);
    expect(back.seal.signedAt).toEqual(signedAt);
    expect(back.bytes.byteOffset).toBe(0);
    expect(back.bytes.buffer.byteLength).toBe(big.length);
    expect(filesLeft()).toEqual([]);
  });

  it('a 25 MB document ingested in the pool arrives whole and leaves no file behind', {
    timeout: 120_000,
  }, async () => {
    const pdf = await makeLargePdf(200);
    expect(pdf.length).toBeGreaterThan(FILE_THRESHOLD);
    const doc = await ingestDocument({ bytes: pdf, tenant: 'ipc-files' });
    expect(doc.pages).toHaveLength(200);
    expect(filesLeft()).toEqual([]);
  });
});
