import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { startTrustServices, type TrustServices } from '@esign/testing/trust-services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectSignatures } from '../../pdf/src/index.ts';
import { sourcePdf, tempDir, writeTemp } from '../../pdf/test/seal-helpers.ts';

// Issue 18: with TSA_URL set, sealing runs in the document pool like B-B sealing, not in the job
// process (before, the TSA / OCSP / CRL exchanges kept it there). A process of its own seals one
// document the way the job process does (sealerFor) and lists every module it resolved.

const run = promisify(execFile);
const script = path.join(import.meta.dirname, 'fixtures/seal-as-job-process.ts');

let services: TrustServices;
beforeAll(async () => {
  services = await startTrustServices();
}, 60_000);
afterAll(async () => {
  await services?.close();
});

/** Libraries and sources that draw, sign or parse PDFs and certificates. */
const SEALING_CODE =
  /\/packages\/pdf\/src\/seal\/(?!trust-error\.ts$)|\/node_modules\/.*(@libpdf|pdf-lib|pdfjs-dist|pkijs|asn1js|node-forge|fontkit|@napi-rs\/canvas|@embedpdf)\//;

describe('sealing with TSA_URL runs in a document pool worker (issue 18)', () => {
  it('the job process seals at B-LTA without loading any PDF, signing or certificate library: the worker does, and asks the job process only for the TSA / OCSP / CRL exchanges', {
    timeout: 120_000,
  }, async () => {
    const dir = tempDir('job-process');
    const input = writeTemp(dir, 'in.pdf', await sourcePdf(2));
    const output = path.join(dir, 'out.pdf');
    const tsaBefore = services.hits['/tsa'] ?? 0;
    const { stdout } = await run(process.execPath, [script, input, output], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        DATA_DIR: dir,
        TSA_URL: services.tsaUrl,
        SIGNING_CERT_P12: Buffer.from(services.leafP12).toString('base64'),
        SIGNING_CERT_PASSWORD: services.leafP12Password,
        // The loopback TSA: the guard's exception for private addresses (production: public only).
        WEBHOOK_ALLOW_PRIVATE: 'true',
      },
      maxBuffer: 16 * 1024 * 1024,
    });
    const result = JSON.parse(stdout) as {
      loaded: string[];
      timestampAuthority: string;
      timestampTime: string;
      certificateSha256: string;
    };
    // It did load the pool (and the outbound guard), so the list is the real one.
    expect(result.loaded.some((u) => u.endsWith('/packages/pdf/src/ingest/isolate.ts'))).toBe(true);
    expect(result.loaded.some((u) => u.includes('/packages/webhooks/src/'))).toBe(true);
    expect(result.loaded.filter((u) => SEALING_CODE.test(u))).toEqual([]);

    expect(services.hits['/tsa'] ?? 0).toBe(tsaBefore + 2);
    expect(result.timestampAuthority).toBe(services.tsaUrl);
    expect(Date.now() - Date.parse(result.timestampTime)).toBeLessThan(120_000);
    expect(result.certificateSha256).toMatch(/^[0-9a-f]{64}$/);
    const sealed = new Uint8Array(readFileSync(output));
    const checks = await inspectSignatures(sealed);
    expect(checks.map((c) => [c.kind, c.valid, c.level])).toEqual([
      ['certification', true, 'B-LTA'],
      ['document_timestamp', true, null],
    ]);
    const sig = execFileSync('pdfsig', [output], { encoding: 'utf8' });
    expect(sig).toMatch(/Signature #1:[\s\S]*Signature Validation: Signature is Valid\./);
    expect(sig).toMatch(/Signature #2:[\s\S]*Signature Field Name: Timestamp_/);
  });
});
