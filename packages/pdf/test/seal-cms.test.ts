import { execFileSync, spawnSync } from 'node:child_process';
import { createHash, verify, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { P12Signer, type Signer } from '@libpdf/core';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCms } from '../src/seal/certify.ts';
import { loadSigningIdentity } from '../src/seal/identity.ts';
import { tempDir, writeTemp } from './seal-helpers.ts';

// The seal's CMS is joined from DER parts encoded once per identity (certify.ts). These tests hold
// it to what a general ASN.1 encoder writes for the same SignedData, and to OpenSSL's verifier.

const ab = (bytes: Uint8Array): ArrayBuffer =>
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

/** The same SignedData built field by field with pkijs objects (how certify.ts built it before). */
async function referenceCms(signer: Signer, digest: Uint8Array, token?: Uint8Array): Promise<Uint8Array> {
  const cert = pkijs.Certificate.fromBER(ab(signer.certificate));
  const issuerSerial = new pkijs.IssuerSerial({
    issuer: new pkijs.GeneralNames({ names: [new pkijs.GeneralName({ type: 4, value: cert.issuer })] }),
    serialNumber: cert.serialNumber,
  });
  const certHash = createHash('sha256').update(signer.certificate).digest();
  const essCertIdV2 = new asn1js.Sequence({
    value: [new asn1js.OctetString({ valueHex: ab(new Uint8Array(certHash)) }), issuerSerial.toSchema()],
  });
  const signedAttrs = new pkijs.SignedAndUnsignedAttributes({
    type: 0,
    attributes: [
      new pkijs.Attribute({
        type: '1.2.840.113549.1.9.3',
        values: [new asn1js.ObjectIdentifier({ value: '1.2.840.113549.1.7.1' })],
      }),
      new pkijs.Attribute({
        type: '1.2.840.113549.1.9.4',
        values: [new asn1js.OctetString({ valueHex: ab(digest) })],
      }),
      new pkijs.Attribute({
        type: '1.2.840.113549.1.9.16.2.47',
        values: [new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertIdV2] })] })],
      }),
    ],
  });
  const toSign = new Uint8Array(signedAttrs.toSchema().toBER(false));
  toSign[0] = 0x31;
  const signature = await signer.sign(toSign, 'SHA-256');
  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({ issuer: cert.issuer, serialNumber: cert.serialNumber }),
    digestAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: '2.16.840.1.101.3.4.2.1' }),
    signedAttrs,
    signatureAlgorithm: new pkijs.AlgorithmIdentifier({
      algorithmId: '1.2.840.113549.1.1.11',
      algorithmParams: new asn1js.Null(),
    }),
    signature: new asn1js.OctetString({ valueHex: ab(signature) }),
  });
  if (token) {
    signerInfo.unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({
      type: 1,
      attributes: [
        new pkijs.Attribute({
          type: '1.2.840.113549.1.9.16.2.14',
          values: [asn1js.fromBER(ab(token)).result],
        }),
      ],
    });
  }
  const signed = new pkijs.SignedData({
    version: 1,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: '1.2.840.113549.1.7.1' }),
    digestAlgorithms: [new pkijs.AlgorithmIdentifier({ algorithmId: '2.16.840.1.101.3.4.2.1' })],
    certificates: [cert, ...(signer.certificateChain ?? []).map((c) => pkijs.Certificate.fromBER(ab(c)))],
    signerInfos: [signerInfo],
  });
  const info = new pkijs.ContentInfo({ contentType: '1.2.840.113549.1.7.2', content: signed.toSchema(true) });
  return new Uint8Array(info.toSchema().toBER(false));
}

/** OpenSSL's verifier: the signature over the signed attributes and the message digest of `content`. */
async function verifies(cms: Uint8Array, content: Uint8Array): Promise<boolean> {
  const dir = tempDir('cms-verify');
  const cmsFile = writeTemp(dir, 'sig.der', cms);
  const contentFile = writeTemp(dir, 'content.bin', content);
  const args = ['cms', '-verify', '-binary', '-inform', 'DER', '-in', cmsFile, '-content', contentFile];
  const run = spawnSync('openssl', [...args, '-noverify', '-out', '/dev/null'], { encoding: 'utf8' });
  return run.status === 0 && run.stderr.includes('Verification successful');
}

const content = new TextEncoder().encode('the bytes a ByteRange covers');
const digest = new Uint8Array(createHash('sha256').update(content).digest());
/** A token stand-in: any one DER element (the CMS carries it as the attribute's value, unchanged). */
const token = new Uint8Array(
  new asn1js.Sequence({
    value: [new asn1js.ObjectIdentifier({ value: '1.2.840.113549.1.7.2' }), new asn1js.Integer({ value: 7 })],
  }).toBER(false),
);
const tsa = (answer: Uint8Array) => ({ timestamp: async () => answer });

describe('seal CMS (PAdES: CAdES detached SignedData, RFC 5652)', () => {
  let rsa: Signer;
  let chained: Signer;
  let ec: Signer;
  let ecP12: Uint8Array;
  let rsaP12: { bytes: Uint8Array; password: string };

  beforeAll(async () => {
    const rsaDir = tempDir('cms-rsa');
    rsa = (await loadSigningIdentity({ dataDir: rsaDir })).signer;
    rsaP12 = {
      bytes: new Uint8Array(readFileSync(path.join(rsaDir, 'signing', 'signing.p12'))),
      password: readFileSync(path.join(rsaDir, 'signing', 'signing.password'), 'utf8').trim(),
    };
    const dir = tempDir('cms-ec');
    const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
    openssl('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', 'ec.key');
    openssl('req', '-new', '-x509', '-key', 'ec.key', '-subj', '/CN=EC seal', '-days', '2', '-out', 'ec.pem');
    openssl(
      'pkcs12',
      '-export',
      '-inkey',
      'ec.key',
      '-in',
      'ec.pem',
      '-passout',
      'pass:pw',
      '-out',
      'ec.p12',
    );
    const p12 = (file: string) => new Uint8Array(readFileSync(path.join(dir, file)));
    ec = (await loadSigningIdentity({ dataDir: dir, p12: p12('ec.p12'), password: 'pw' })).signer;
    openssl('genrsa', '-out', 'root.key', '2048');
    openssl(
      'req',
      '-new',
      '-x509',
      '-key',
      'root.key',
      '-subj',
      '/CN=Test Root',
      '-days',
      '2',
      '-out',
      'root.pem',
    );
    openssl('genrsa', '-out', 'leaf.key', '2048');
    openssl('req', '-new', '-key', 'leaf.key', '-subj', '/CN=Chained seal', '-out', 'leaf.csr');
    openssl(
      'x509',
      '-req',
      '-in',
      'leaf.csr',
      '-CA',
      'root.pem',
      '-CAkey',
      'root.key',
      '-days',
      '2',
      '-out',
      'leaf.pem',
    );
    openssl(
      'pkcs12',
      '-export',
      '-inkey',
      'leaf.key',
      '-in',
      'leaf.pem',
      '-certfile',
      'root.pem',
      '-passout',
      'pass:pw',
      '-out',
      'leaf.p12',
    );
    chained = (await loadSigningIdentity({ dataDir: dir, p12: p12('leaf.p12'), password: 'pw' })).signer;
    ecP12 = p12('ec.p12');
  }, 60_000);

  it('is byte for byte the SignedData pkijs encodes for the same fields (RSA, no chain)', async () => {
    const cms = await buildCms({ signer: rsa, signingTime: new Date(), reservedBytes: 8192 }, digest);
    expect(Buffer.from(cms).toString('hex')).toBe(
      Buffer.from(await referenceCms(rsa, digest)).toString('hex'),
    );
    expect(await verifies(cms, content)).toBe(true);
  });

  it('carries the whole certificate chain, leaf first, and still matches pkijs', async () => {
    expect(chained.certificateChain).toHaveLength(1);
    const cms = await buildCms({ signer: chained, signingTime: new Date(), reservedBytes: 8192 }, digest);
    expect(Buffer.from(cms).toString('hex')).toBe(
      Buffer.from(await referenceCms(chained, digest)).toString('hex'),
    );
    const signed = new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(ab(cms)).content });
    expect(signed.certificates).toHaveLength(2);
  });

  it('puts the timestamp token (B-T) in an unsigned attribute exactly as received', async () => {
    const cms = await buildCms(
      { signer: rsa, signingTime: new Date(), reservedBytes: 8192, timestampAuthority: tsa(token) },
      digest,
    );
    expect(Buffer.from(cms).toString('hex')).toBe(
      Buffer.from(await referenceCms(rsa, digest, token)).toString('hex'),
    );
  });

  it('refuses a timestamp answer that is not exactly one DER element', async () => {
    for (const bad of [
      new Uint8Array([...token, 0]),
      token.subarray(0, token.length - 1),
      new Uint8Array(0),
    ]) {
      await expect(
        buildCms(
          { signer: rsa, signingTime: new Date(), reservedBytes: 8192, timestampAuthority: tsa(bad) },
          digest,
        ),
      ).rejects.toThrow(/not one DER element/);
    }
  });

  it('signs with an EC key (ecdsa-with-SHA256, no parameters) and verifies', async () => {
    const cms = await buildCms({ signer: ec, signingTime: new Date(), reservedBytes: 8192 }, digest);
    const signed = new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(ab(cms)).content });
    expect(signed.signerInfos[0]!.signatureAlgorithm.algorithmId).toBe('1.2.840.10045.4.3.2');
    expect(signed.signerInfos[0]!.signatureAlgorithm.algorithmParams).toBeUndefined();
    expect(await verifies(cms, content)).toBe(true);
  });

  it('signs on the calling thread with the PKCS#12 key: the RSA bytes WebCrypto makes, ECDSA in DER', async () => {
    const data = new TextEncoder().encode('signed attributes');
    const p12 = rsaP12;
    const webCrypto = await P12Signer.create(p12.bytes, p12.password);
    const ours = (
      await loadSigningIdentity({ dataDir: tempDir('cms-same'), p12: p12.bytes, password: p12.password })
    ).signer;
    expect(Buffer.from(await ours.sign(data, 'SHA-256'))).toEqual(
      Buffer.from(await webCrypto.sign(data, 'SHA-256')),
    );
    const ecSignature = await ec.sign(data, 'SHA-256');
    expect(ecSignature[0]).toBe(0x30); // DER SEQUENCE { r, s }, not WebCrypto's r || s
    const ecCert = new X509Certificate(ec.certificate);
    expect(verify('sha256', data, { key: ecCert.publicKey, dsaEncoding: 'der' }, ecSignature)).toBe(true);
    expect(
      verify(
        'sha256',
        new TextEncoder().encode('other'),
        { key: ecCert.publicKey, dsaEncoding: 'der' },
        ecSignature,
      ),
    ).toBe(false);
    const ecWebCrypto = await P12Signer.create(ecP12, 'pw');
    expect(
      verify(
        'sha256',
        data,
        { key: ecCert.publicKey, dsaEncoding: 'der' },
        await ecWebCrypto.sign(data, 'SHA-256'),
      ),
    ).toBe(true);
  });

  it('does not verify for other content: the digest is the one given', async () => {
    const cms = await buildCms({ signer: rsa, signingTime: new Date(), reservedBytes: 8192 }, digest);
    expect(await verifies(cms, new TextEncoder().encode('other bytes'))).toBe(false);
  });

  it('writes long-form lengths correctly (a 70 kB token)', async () => {
    const big = new Uint8Array(new asn1js.OctetString({ valueHex: new ArrayBuffer(70_000) }).toBER(false));
    const cms = await buildCms(
      { signer: rsa, signingTime: new Date(), reservedBytes: 80_000, timestampAuthority: tsa(big) },
      digest,
    );
    expect(Buffer.from(cms).toString('hex')).toBe(
      Buffer.from(await referenceCms(rsa, digest, big)).toString('hex'),
    );
  });
});
