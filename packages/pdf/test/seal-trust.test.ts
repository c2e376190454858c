import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startTrustServices, type TrustServices } from '@esign/testing/trust-services';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createRevocationProvider,
  createTimestampAuthority,
  inspectSignatures,
  isIntact,
  loadSigningIdentity,
  type SealTrust,
  type SigningIdentity,
  sealDocument,
  type TrustFetch,
} from '../src/seal/index.ts';
import { requireTool, sourcePdf, tempDir, writeTemp } from './seal-helpers.ts';

// Issue 15, items 2, 3 and 5: trusted time (B-T), long-term validation (B-LT, B-LTA) and an
// operator certificate with a real chain, against real trust services on loopback.

let services: TrustServices;
let identity: SigningIdentity;

/** Plain fetch for this package's tests (the service passes its guarded fetch instead). */
const fetchTrust: TrustFetch = async (url, init) => {
  const res = await fetch(url, { method: init.method, headers: init.headers, body: init.body as BodyInit });
  return { status: res.status, body: new Uint8Array(await res.arrayBuffer()) };
};

function trust(opts: { username?: string; password?: string } = {}): SealTrust {
  return {
    timestampAuthority: createTimestampAuthority({ url: services.tsaUrl, fetch: fetchTrust, ...opts }),
    revocationProvider: createRevocationProvider(fetchTrust),
  };
}

const seal = async (t: SealTrust) =>
  sealDocument({ pdf: await sourcePdf(2), values: [], identity, name: 'trusted', trust: t });

beforeAll(async () => {
  services = await startTrustServices();
  identity = await loadSigningIdentity({
    dataDir: tempDir('seal-trust'),
    p12: services.leafP12,
    password: services.leafP12Password,
  });
}, 60_000);

afterAll(async () => {
  await services?.close();
});

describe('sealing with a TSA and LTV data (PAdES B-T, B-LT, B-LTA)', () => {
  it('SIGNING_CERT_P12 with test CA → intermediate → leaf: the seal embeds the whole chain', () => {
    expect(identity.subject).toBe('O=esign tests, CN=Test Sealing Leaf');
    expect(identity.chainPem).toHaveLength(2);
    expect(identity.chainPem[0]).toContain(services.intermediatePem.split('\n')[1]);
  });

  it('reaches B-LTA: signature timestamp, DSS with chain + OCSP + CRL, document timestamp; pdfsig and mutool report the seal valid', async () => {
    requireTool('mutool');
    const hitsBefore = { ...services.hits };
    const sealed = await seal(trust());
    expect((services.hits['/tsa'] ?? 0) - (hitsBefore['/tsa'] ?? 0)).toBe(2);
    expect((services.hits['/ocsp'] ?? 0) - (hitsBefore['/ocsp'] ?? 0)).toBeGreaterThanOrEqual(1);
    expect((services.hits['/root.crl'] ?? 0) - (hitsBefore['/root.crl'] ?? 0)).toBeGreaterThanOrEqual(1);

    const checks = await inspectSignatures(sealed);
    expect(checks.map((c) => [c.kind, c.valid, c.modifiedAfterSigning, c.level])).toEqual([
      ['certification', true, false, 'B-LTA'],
      ['document_timestamp', true, false, null],
    ]);
    expect(checks[0]!.timestampTime).not.toBeNull();
    expect(checks[1]!.signerSubject).toBe('O=esign tests, CN=Test Time Stamping Unit');
    expect(isIntact(checks)).toBe(true);

    const file = writeTemp(tempDir('seal-trust-out'), 'b-lta.pdf', sealed);
    const sig = execFileSync('pdfsig', [file], { encoding: 'utf8' });
    expect(sig).toMatch(/Signature #1:[\s\S]*Signature Validation: Signature is Valid\./);
    expect(sig).toContain('Signer Certificate Common Name: Test Sealing Leaf');
    expect(sig).toContain('Signature Field Name: Timestamp_');
    const mutool = spawnSync('mutool', ['sign', '-v', file], { encoding: 'utf8' });
    expect(mutool.stdout).toContain('The signature is valid but there have been edits since signing.');
    expect(mutool.stdout).not.toMatch(/signature is invalid|Digest error/i);
    const qpdf = spawnSync('qpdf', ['--check', file], { encoding: 'utf8' });
    expect(qpdf.status, qpdf.stdout + qpdf.stderr).toBe(0);
  }, 120_000);

  it('verify reports each level honestly from the file alone: cut back to earlier revisions, the same seal is B-LT, then B-T', async () => {
    const sealed = await seal(trust());
    const text = Buffer.from(sealed).toString('latin1');
    const ends = [...text.matchAll(/%%EOF\r?\n?/g)].map((m) => m.index! + m[0].length);
    // Revisions: 1 original, 2 certification (+ signature timestamp), 3 DSS, 4 document timestamp, 5 DSS of the TSA.
    expect(ends).toHaveLength(5);
    const levelAt = async (end: number) => (await inspectSignatures(sealed.subarray(0, end)))[0]!.level;
    expect(await levelAt(ends[1]!)).toBe('B-T');
    expect(await levelAt(ends[2]!)).toBe('B-LT');
    expect(await levelAt(ends[3]!)).toBe('B-LTA');
    for (const end of ends.slice(1))
      expect(isIntact(await inspectSignatures(sealed.subarray(0, end)))).toBe(true);
  }, 120_000);

  it('TSA_URL credentials are sent as HTTP Basic; a TSA that refuses them fails the seal (no file, no silent B-B)', async () => {
    services.tsaCredentials = 'tsa-user:tsa-pass';
    try {
      await expect(seal(trust())).rejects.toThrow(/time-stamping authority .* answered HTTP 401/);
      const sealed = await seal(trust({ username: 'tsa-user', password: 'tsa-pass' }));
      expect((await inspectSignatures(sealed))[0]!.level).toBe('B-LTA');
    } finally {
      services.tsaCredentials = null;
    }
  }, 120_000);

  it('a TSA that is down fails the seal with a TrustServiceError instead of producing a file without trusted time', async () => {
    services.fail['/tsa'] = 503;
    try {
      await expect(seal(trust())).rejects.toMatchObject({
        name: 'TrustServiceError',
        message: expect.stringMatching(/answered HTTP 503/),
      });
    } finally {
      delete services.fail['/tsa'];
    }
  }, 60_000);

  it('an OCSP responder and CRL that cannot be fetched fail the seal (it never claims B-LT without revocation data)', async () => {
    services.fail['/ocsp'] = 500;
    services.fail['/root.crl'] = 500;
    try {
      await expect(seal(trust())).rejects.toThrow(/Long-term validation data incomplete/);
    } finally {
      delete services.fail['/ocsp'];
      delete services.fail['/root.crl'];
    }
  }, 60_000);

  it('a PKCS#12 without its chain is refused before any trust service is asked (no unguarded issuer downloads)', async () => {
    const dir = services.dir;
    execFileSync(
      'openssl',
      [
        'pkcs12',
        '-export',
        '-inkey',
        'leaf.key',
        '-in',
        'leaf.pem',
        '-passout',
        'pass:x',
        '-out',
        'leaf-alone.p12',
      ],
      { cwd: dir },
    );
    const alone = await loadSigningIdentity({
      dataDir: tempDir('seal-trust-alone'),
      p12: new Uint8Array(readFileSync(path.join(dir, 'leaf-alone.p12'))),
      password: 'x',
    });
    const before = services.hits['/tsa'] ?? 0;
    await expect(
      sealDocument({ pdf: await sourcePdf(1), values: [], identity: alone, name: 'alone', trust: trust() }),
    ).rejects.toThrow(/must hold its whole chain/);
    expect(services.hits['/tsa'] ?? 0).toBe(before);
  });

  it('a TSA token without its chain up to the root fails the seal (no issuer downloads outside the guard)', async () => {
    services.tsaWithoutChain = true;
    try {
      await expect(seal(trust())).rejects.toThrow(/without its certificate chain up to the root/);
    } finally {
      services.tsaWithoutChain = false;
    }
  });

  it('without a TSA the seal is B-B, and says so', async () => {
    const sealed = await seal({});
    const [check] = await inspectSignatures(sealed);
    expect(check).toMatchObject({ level: 'B-B', timestampTime: null, kind: 'certification', docMdp: 1 });
  });
});
