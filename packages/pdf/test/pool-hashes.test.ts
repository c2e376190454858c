import { createHash } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  combineInPool,
  DocumentInputError,
  ingestDocument,
  poolInputPath,
  SealInputMismatchError,
  sealInPool,
} from '../src/ingest/index.ts';
import { inspectSignatures } from '../src/seal/index.ts';
import { makePlainPdf, makePngImage, makeTaggedPdf } from './ingest-fixtures.ts';
import { sourcePdf, tempDir } from './seal-helpers.ts';

// Issue 18: the SHA-256 of every file the document pool is given or makes is computed in its
// worker, where the bytes are anyway (25 MB: ~13 ms each that the calling event loop is spared),
// and the sealing worker checks the original against the hash the request was sent with before
// anything parses it (sealing.ts: "the stored original's SHA-256 … is not the one sent").

const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const identity = { dataDir: tempDir('pool-hashes') };

describe('hashes made in the document pool', () => {
  it('ingest: inputSha256 is the upload’s, sha256 the stored PDF’s (unchanged, tags removed, image converted)', async () => {
    for (const bytes of [await makePlainPdf(2), await makeTaggedPdf(), await makePngImage(40, 30)]) {
      const doc = await ingestDocument({ bytes });
      expect(doc.inputSha256).toBe(sha256(bytes));
      expect(doc.sha256).toBe(sha256(doc.pdf));
    }
    // The tagged PDF and the image are stored changed: the two hashes differ.
    const tagged = await ingestDocument({ bytes: await makeTaggedPdf() });
    expect(tagged.sha256).not.toBe(tagged.inputSha256);
  });

  it('seal and combine: the sealed and combined files’ hashes and the original’s', async () => {
    const original = await sourcePdf(2);
    const sealed = await sealInPool(original, {
      values: [],
      identity,
      name: 'hashed',
      expectedSha256: sha256(original),
    });
    expect(sealed.inputSha256).toBe(sha256(original));
    expect(sealed.sha256).toBe(sha256(sealed.pdf));
    const combined = await combineInPool([sealed.pdf], identity, 'combined');
    expect(combined.sha256).toBe(sha256(combined.pdf));
  }, 60_000);

  it('a document handed over as a file (PoolFile) is sealed from it, and the file is removed once read', async () => {
    const original = await sourcePdf(3);
    const file = poolInputPath();
    writeFileSync(file, original);
    const sealed = await sealInPool({ file }, { values: [], identity, name: 'from a file' });
    expect(sealed.inputSha256).toBe(sha256(original));
    expect((await inspectSignatures(sealed.pdf))[0]!.coversWholeDocument).toBe(true);
    expect(existsSync(file)).toBe(false);
  }, 60_000);

  it('a file that is not the expected one is refused before it is parsed (SealInputMismatchError, not a document error)', async () => {
    // Not even a PDF: parsed, it would be a DocumentInputError.
    const garbage = new TextEncoder().encode('not the document that was sent');
    const err = await sealInPool(garbage, {
      values: [],
      identity,
      name: 'swapped',
      expectedSha256: sha256(await sourcePdf(1)),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SealInputMismatchError);
    expect(err).not.toBeInstanceOf(DocumentInputError);
    expect((err as SealInputMismatchError).actualSha256).toBe(sha256(garbage));
  }, 60_000);
});
