import { createHash } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyInPool } from '../src/pool.ts';
import { inspectSignatures, loadSigningIdentity, sealDocument } from '../src/seal/index.ts';
import { forge } from './forgery.ts';
import { makeCorruptPdf } from './ingest-fixtures.ts';
import { sourcePdf, tempDir } from './seal-helpers.ts';

// Issue 18: POST /documents/verify parses the upload (every revision of it) in the document pool,
// never on the event loop of the process answering HTTP. A sealed 2,000-page file with 12 later
// revisions takes @libpdf/core seconds to check: in the caller's thread that stood the event loop
// still for all of it.

const dataDir = tempDir('verify-pool');
let heavy: Uint8Array;
let sealed: Uint8Array;
let serviceFingerprint: string;

beforeAll(async () => {
  const identity = await loadSigningIdentity({ dataDir });
  serviceFingerprint = identity.fingerprintSha256;
  const seal = (pdf: Uint8Array) =>
    sealDocument({ pdf, values: [], identity, name: 'contract', signedAt: new Date() });
  sealed = await seal(await sourcePdf(2));
  heavy = await seal(await sourcePdf(2000));
  // 24 revisions: about 1.1 s to check here, well past the 300 ms limit below.
  for (let i = 0; i < 24; i++) heavy = await forge(heavy, undefined, i % 3);
}, 120_000);

describe('POST /documents/verify checks signatures in the document pool (issue 18)', () => {
  it('the pool answers what the in-process check answers, with the file hash and the service certificate', async () => {
    const result = await verifyInPool(sealed, { dataDir }, { tenant: 'account-a' });
    expect(result.checks).toEqual(await inspectSignatures(sealed));
    expect(result.checks).toHaveLength(1);
    expect(result.intact).toBe(true);
    expect(result.sha256).toBe(createHash('sha256').update(sealed).digest('hex'));
    expect(result.serviceCertificateSha256).toBe(serviceFingerprint);
    expect(result.checks[0]!.signerCertificateSha256).toBe(serviceFingerprint);
  });

  it("a file that takes seconds to check never blocks the caller's event loop, and is reported modified", {
    timeout: 120_000,
  }, async () => {
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    const started = performance.now();
    const result = await verifyInPool(heavy, { dataDir }, { tenant: 'account-a' });
    const took = performance.now() - started;
    lag.disable();
    expect(result.intact).toBe(false);
    expect(result.checks[0]!.modifiedAfterSigning).toBe(true);
    console.log(
      `heavy verify: ${Math.round(took)} ms, caller's longest event-loop stall ${Math.round(lag.max / 1e6)} ms`,
    );
    // In this thread the check stood the event loop still for its whole duration (seconds).
    expect(lag.max / 1e6).toBeLessThan(500);
  });

  it("the pool's time limit stops a check that runs too long: invalid_document, and the next check is answered", {
    timeout: 120_000,
  }, async () => {
    const err = await verifyInPool(heavy, { dataDir }, { limits: { timeoutMs: 300 } }).catch((e) => e);
    expect(err).toMatchObject({ code: 'invalid_document', message: expect.stringMatching(/took too long/) });
    expect((await verifyInPool(sealed, { dataDir })).intact).toBe(true);
  });

  it('a damaged file is answered (no signature found) or refused as invalid_document, never a crash of the caller', async () => {
    const corrupt = makeCorruptPdf();
    const outcome = await verifyInPool(corrupt, { dataDir }).then(
      (r) => (r.checks.length === 0 ? 'unsigned' : 'checked'),
      (e: { code?: string }) => e.code,
    );
    expect(['unsigned', 'invalid_document']).toContain(outcome);
    const truncated = sealed.subarray(0, Math.floor(sealed.length * 0.6));
    const checks = await verifyInPool(truncated, { dataDir }).then((r) => r.checks);
    expect(checks.every((c) => !c.valid || !c.coversWholeDocument)).toBe(true);
  });
});
