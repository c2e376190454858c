import { spawnSync } from 'node:child_process';
import { createHash, createPrivateKey, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { requirement } from '@esign/testing/requirements';
import { beforeAll, describe, expect, it } from 'vitest';
import { children, readElement } from '../src/verify/ber.ts';
import { checkCms } from '../src/verify/cms-check.ts';
import {
  embed,
  encode,
  hasOpenssl,
  inputOf,
  Openssl,
  oidNode,
  type Prepared,
  preparePdf,
  raw,
  signedData,
  tamper,
  tlv,
  tree,
} from './verify-cms-fixtures.ts';

// Issue 40 item 5: the CMS of signatures made by other tools, read as real signed PDFs write
// them. Each case is a PDF signed with OpenSSL (verified) and the same file with its signed fee
// changed (not verified). Without openssl the cases are skipped with a message (failed under CI).

const available = requirement('openssl', hasOpenssl, 'apt-get install -y openssl');
const hasPdfsig = requirement(
  'pdfsig',
  spawnSync('which', ['pdfsig']).status === 0,
  'apt-get install -y poppler-utils',
);

const DETACHED = '/Type /Sig /Filter /Adobe.PPK.Lite /SubFilter /adbe.pkcs7.detached';
const CADES = '/Type /Sig /Filter /Adobe.PPK.Lite /SubFilter /ETSI.CAdES.detached';

let ssl: Openssl;

/** Signs a fresh file whose dictionary is `dict` with `make` (given the signed bytes). */
function signedPdf(dict: string, make: (signed: Uint8Array, p: Prepared) => Uint8Array, capacity = 16384) {
  const prepared = preparePdf(dict, capacity);
  return embed(prepared, make(prepared.signed, prepared));
}

/** The file verifies, and the same file with its fee changed does not. */
function expectVerifiesAndTamperFails(pdf: Uint8Array) {
  const result = checkCms(inputOf(pdf));
  expect(result.error).toBeUndefined();
  expect(result.valid).toBe(true);
  const forged = checkCms(inputOf(tamper(pdf)));
  expect(forged.valid).toBe(false);
  expect(forged.error).toMatch(/digest does not match|does not verify/);
  return result;
}

describe.skipIf(!available)('issue 40 item 5: the CMS of real signed PDFs (checkCms)', () => {
  beforeAll(() => {
    ssl = new Openssl();
    ssl.identity('rsa', 'rsa');
    ssl.identity('second', 'rsa');
    ssl.identity('p256', 'P-256');
    ssl.identity('p384', 'P-384');
    ssl.tsaIdentity('tsa', 'rsa');
    ssl.tsaIdentity('tsaec', 'P-256');
  });

  it('issue 40 item 5: a SHA-1 signature verifies and is flagged weak', () => {
    const pdf = signedPdf(DETACHED, (data) => ssl.cms(data, ['rsa'], ['-md', 'sha1']));
    const result = expectVerifiesAndTamperFails(pdf);
    expect(result.weakAlgorithms).toEqual(['SHA-1']);
    expect(result.signerSubject).toBe('CN=rsa');
    expect(result.signingTime).toMatch(/^\d{4}-\d\d-\d\dT/); // OpenSSL adds signing-time
    expect(result.certificates[0]).toEqual(ssl.der('rsa.pem'));
    expect(result.signerCertificateSha256).toBe(
      createHash('sha256').update(ssl.der('rsa.pem')).digest('hex'),
    );
  });

  it.skipIf(!hasPdfsig)(
    'issue 40 item 5: poppler (pdfsig) reads these files as we do: SHA-1, no signed attributes, ECDSA, two SignerInfos valid, each fee-changed copy not',
    () => {
      const cases = [
        (d: Uint8Array) => ssl.cms(d, ['rsa'], ['-md', 'sha1']),
        (d: Uint8Array) => ssl.cms(d, ['rsa'], ['-noattr']),
        (d: Uint8Array) => ssl.cms(d, ['p256']),
        (d: Uint8Array) => ssl.cms(d, ['rsa', 'p256']),
      ];
      const pdfsig = (pdf: Uint8Array) => {
        const file = path.join(ssl.dir, ssl.write('oracle.pdf', pdf));
        return /Signature Validation: (.*)/.exec(
          spawnSync('pdfsig', [file], { encoding: 'utf8' }).stdout,
        )?.[1];
      };
      for (const make of cases) {
        const pdf = signedPdf(DETACHED, make);
        expect(checkCms(inputOf(pdf)).valid).toBe(true);
        expect(pdfsig(pdf)).toBe('Signature is Valid.');
        expect(checkCms(inputOf(tamper(pdf))).valid).toBe(false);
        expect(pdfsig(tamper(pdf))).toMatch(/Digest Mismatch|Signature is Invalid/);
      }
    },
  );

  it.each(['sha384', 'sha512', 'sha3-256', 'sha3-512'])(
    'issue 40 item 5: a %s signature verifies, not flagged weak',
    (md) => {
      const pdf = signedPdf(DETACHED, (data) => ssl.cms(data, ['rsa'], ['-md', md]));
      expect(expectVerifiesAndTamperFails(pdf).weakAlgorithms).toEqual([]);
    },
  );

  it.each(['p256', 'p384'])('issue 40 item 5: an ECDSA %s signature (ecdsa-with-SHA*) verifies', (key) => {
    const pdf = signedPdf(DETACHED, (data) => ssl.cms(data, [key], ['-md', 'sha384']));
    expect(expectVerifiesAndTamperFails(pdf).signerSubject).toBe(`CN=${key}`);
  });

  it('issue 40 item 5: plain ECDSA named id-ecPublicKey (as some tools write) verifies with the SignerInfo digest', () => {
    const pdf = signedPdf(DETACHED, (data) => {
      const root = tree(ssl.cms(data, ['p256'], ['-md', 'sha256']));
      const si = signedData(root).signerInfos[0]!;
      si.kids![4] = { id: Uint8Array.of(0x30), kids: [oidNode('1.2.840.10045.2.1')] };
      return encode(root);
    });
    expectVerifiesAndTamperFails(pdf);
  });

  it('issue 40 item 5: an RSASSA-PSS signature verifies', () => {
    const pdf = signedPdf(DETACHED, (data) =>
      ssl.cms(
        data,
        ['rsa'],
        ['-md', 'sha256', '-keyopt', 'rsa_padding_mode:pss', '-keyopt', 'rsa_pss_saltlen:32'],
      ),
    );
    const cms = inputOf(pdf).contents;
    expect(Buffer.from(cms).includes(Buffer.from('06092a864886f70d01010a', 'hex'))).toBe(true); // id-RSASSA-PSS
    expectVerifiesAndTamperFails(pdf);
  });

  it('issue 40 item 5: without signed attributes the signature verifies over the signed bytes themselves', () => {
    for (const signer of ['rsa', 'p256']) {
      const pdf = signedPdf(DETACHED, (data) => ssl.cms(data, [signer], ['-md', 'sha256', '-noattr']));
      const result = expectVerifiesAndTamperFails(pdf);
      expect(result.signingTime).toBeNull();
    }
  });

  it('issue 40 item 5: adbe.pkcs7.sha1 signs the encapsulated SHA-1 digest of the byte ranges, with or without signed attributes', () => {
    const dict = '/Type /Sig /Filter /Adobe.PPK.Lite /SubFilter /adbe.pkcs7.sha1';
    for (const attrs of [[], ['-noattr']]) {
      const pdf = signedPdf(dict, (data) =>
        ssl.cms(createHash('sha1').update(data).digest(), ['rsa'], ['-md', 'sha256', '-nodetach', ...attrs]),
      );
      expect(expectVerifiesAndTamperFails(pdf).weakAlgorithms).toEqual(['SHA-1']);
    }
    // The same CMS read as a detached signature is refused (its content is not the file).
    const pdf = signedPdf(dict, (data) =>
      ssl.cms(createHash('sha1').update(data).digest(), ['rsa'], ['-nodetach']),
    );
    expect(checkCms({ ...inputOf(pdf), subFilter: 'adbe.pkcs7.detached' })).toMatchObject({
      valid: false,
      error: 'CMS is not detached.',
    });
  });

  it('issue 40 item 5: with two SignerInfos every one must verify over the same content, and the first is the signer', () => {
    const pdf = signedPdf(DETACHED, (data) => ssl.cms(data, ['second', 'p256']));
    const result = expectVerifiesAndTamperFails(pdf);
    // OpenSSL writes the SignerInfos in DER SET order: the (shorter) ECDSA one first.
    expect(result.signerSubject).toBe('CN=p256');
    expect(result.certificates).toHaveLength(2);
    // The second SignerInfo's signature value changed: the file no longer verifies.
    const input = inputOf(pdf);
    const root = tree(input.contents.subarray(0, readElement(input.contents, 0).end));
    const value = signedData(root).signerInfos[1]!.kids![5]!.value!;
    const changed = Uint8Array.from(value);
    changed[10] = changed[10]! ^ 1;
    signedData(root).signerInfos[1]!.kids![5] = { id: Uint8Array.of(4), value: changed };
    expect(checkCms({ ...input, contents: encode(root) })).toMatchObject({
      valid: false,
      error: 'CMS signature does not verify with the signer certificate.',
    });
  });

  it('issue 40 item 5: a SignerInfo identified by subjectKeyIdentifier verifies (SignerInfo and SignedData version 3)', () => {
    const pdf = signedPdf(DETACHED, (data) => ssl.cms(data, ['rsa'], ['-keyid']));
    const si = signedData(tree(inputOf(pdf).contents.subarray(0, readElement(inputOf(pdf).contents, 0).end)))
      .signerInfos[0]!;
    expect(si.kids![1]!.id[0]).toBe(0x80); // [0] subjectKeyIdentifier
    expect(expectVerifiesAndTamperFails(pdf).signerSubject).toBe('CN=rsa');
  });

  it('issue 40 item 5: bytes after the CMS in /Contents are not read; BER indefinite lengths (openssl -stream) are', () => {
    const prepared = preparePdf(DETACHED, 16384);
    const cms = ssl.cms(prepared.signed, ['rsa']);
    const pdf = embed(prepared, cms, Buffer.from('trailing bytes a tool left after the CMS'));
    expect(expectVerifiesAndTamperFails(pdf).signerSubject).toBe('CN=rsa');
    // OpenSSL streams encapsulated content only: an adbe.pkcs7.sha1 signature, its digest in a
    // constructed OCTET STRING of indefinite length.
    const sha1 = preparePdf('/Type /Sig /Filter /Adobe.PPK.Lite /SubFilter /adbe.pkcs7.sha1', 16384);
    const digest = createHash('sha1').update(sha1.signed).digest();
    const streamed = ssl.cms(digest, ['p256'], ['-stream', '-nodetach']);
    expect(streamed[1]).toBe(0x80); // indefinite length
    expectVerifiesAndTamperFails(embed(sha1, streamed));
    // A length that no longer fits (the CMS cut short) is refused, never read as far as it goes.
    const cut = checkCms({ ...inputOf(pdf), contents: cms.subarray(0, cms.length - 3) });
    expect(cut).toMatchObject({ valid: false, error: expect.stringMatching(/not valid BER/) });
  });

  it('issue 40 item 5: a CRL of 100,000 entries in SignedData crls and in adbe-revocationInfoArchival is read and returned', () => {
    const crl = ssl.crl('rsa', 100_000);
    expect(crl.length).toBeGreaterThan(2_000_000);
    // SignedData crls [1]: added to what OpenSSL signed (crls are outside the signature).
    const inCrls = signedPdf(
      DETACHED,
      (data) => {
        const root = tree(ssl.cms(data, ['rsa']));
        const { sd } = signedData(root);
        sd.kids!.splice(sd.kids!.length - 1, 0, { id: Uint8Array.of(0xa1), kids: [raw(crl)] });
        return encode(root);
      },
      2_300_000,
    );
    const started = performance.now();
    const result = expectVerifiesAndTamperFails(inCrls);
    const ms = performance.now() - started;
    expect(result.revocation.crls).toHaveLength(1);
    expect(Buffer.from(crl).equals(result.revocation.crls[0]!)).toBe(true);
    expect(ms).toBeLessThan(5_000);
    // adbe-revocationInfoArchival, a signed attribute (Adobe's writers put CRLs there).
    const archived = signedPdf(CADES, (data) => signedWithArchival(data, crl), 2_300_000);
    const second = expectVerifiesAndTamperFails(archived);
    expect(second.revocation.crls).toHaveLength(1);
    expect(Buffer.from(crl).equals(second.revocation.crls[0]!)).toBe(true);
    expect(second.revocation.ocsps).toEqual([]);
  });

  it('issue 40 item 5: a document timestamp verifies whatever its dictionary type (DocTimeStamp, Sig, none), SHA-1 imprints flagged weak', () => {
    const dicts = [
      '/Type /DocTimeStamp /Filter /Adobe.PPK.Lite /SubFilter /ETSI.RFC3161',
      '/Type /Sig /Filter /Adobe.PPK.Lite /SubFilter /ETSI.RFC3161',
      '/Filter /Adobe.PPK.Lite /SubFilter /ETSI.RFC3161',
    ];
    for (const dict of dicts) {
      for (const digest of ['sha1', 'sha256'] as const) {
        const pdf = signedPdf(dict, (data) => ssl.timestamp(data, digest));
        const result = expectVerifiesAndTamperFails(pdf);
        expect(result).toMatchObject({
          signerSubject: 'CN=tsa',
          timestampAuthority: 'CN=tsa',
          timestampTime: expect.stringMatching(/^\d{4}-/),
          weakAlgorithms: digest === 'sha1' ? ['SHA-1'] : [],
        });
        expect(result.timestampCertificates[0]).toEqual(ssl.der('tsa.pem'));
      }
    }
    // An ECDSA time-stamping authority.
    const ec = signedPdf(dicts[0]!, (data) => ssl.timestamp(data, 'sha256', 'tsaec'));
    expect(expectVerifiesAndTamperFails(ec).timestampAuthority).toBe('CN=tsaec');
  });

  it('issue 40 item 5: a signature timestamp (unsigned attribute) must imprint the signature value, SHA-1 imprint flagged weak', () => {
    let token: Uint8Array | undefined;
    const withToken = (data: Uint8Array, other: boolean) => {
      const root = tree(ssl.cms(data, ['p256'], ['-cades']));
      const si = signedData(root).signerInfos[0]!;
      const value = si.kids![5]!.value!;
      token = ssl.timestamp(other ? Buffer.from('another value') : value, 'sha1', 'tsaec');
      si.kids!.push({
        id: Uint8Array.of(0xa1),
        kids: [
          {
            id: Uint8Array.of(0x30),
            kids: [oidNode('1.2.840.113549.1.9.16.2.14'), { id: Uint8Array.of(0x31), kids: [raw(token)] }],
          },
        ],
      });
      return encode(root);
    };
    const pdf = signedPdf(CADES, (data) => withToken(data, false));
    const result = expectVerifiesAndTamperFails(pdf);
    expect(result).toMatchObject({
      signerSubject: 'CN=p256',
      timestampAuthority: 'CN=tsaec',
      weakAlgorithms: ['SHA-1'],
    });
    expect(result.timestampTime).not.toBeNull();
    const wrong = signedPdf(CADES, (data) => withToken(data, true));
    expect(checkCms(inputOf(wrong))).toMatchObject({
      valid: false,
      error: 'Signature timestamp does not verify: it imprints another value than the signature.',
    });
    expect(token).toBeDefined();
  });

  it('issue 40 item 5: the ESS signing-certificate-v2 attribute must match the signer certificate; absent it is fine for adbe.pkcs7.*, not for ETSI.CAdES.detached', () => {
    // Same key, issuer and serial, another certificate: only the ESS attribute tells them apart.
    ssl.run(
      'req',
      '-new',
      '-x509',
      '-key',
      'rsa.key',
      '-subj',
      '/CN=twin',
      '-days',
      '3',
      '-set_serial',
      '7',
      '-out',
      'a.pem',
    );
    ssl.run(
      'req',
      '-new',
      '-x509',
      '-key',
      'rsa.key',
      '-subj',
      '/CN=twin',
      '-days',
      '9',
      '-set_serial',
      '7',
      '-out',
      'b.pem',
    );
    ssl.run('x509', '-in', 'b.pem', '-outform', 'DER', '-out', 'b.der');
    const twin = ssl.read('b.der');
    const cades = signedPdf(CADES, (data) => {
      ssl.write('a.key', readFileSync(path.join(ssl.dir, 'rsa.key')));
      return ssl.cms(data, ['a'], ['-cades']);
    });
    expectVerifiesAndTamperFails(cades);
    const input = inputOf(cades);
    const root = tree(input.contents.subarray(0, readElement(input.contents, 0).end));
    signedData(root).sd.kids![3] = { id: Uint8Array.of(0xa0), kids: [raw(twin)] };
    expect(checkCms({ ...input, contents: encode(root) })).toMatchObject({
      valid: false,
      error: 'signing-certificate attribute does not match the signer certificate.',
    });
    // No ESS attribute (OpenSSL without -cades): fine for adbe.pkcs7.detached, refused for CAdES.
    const plain = signedPdf(CADES, (data) => ssl.cms(data, ['rsa']));
    expect(checkCms({ ...inputOf(plain), subFilter: 'adbe.pkcs7.detached' }).valid).toBe(true);
    expect(checkCms(inputOf(plain))).toMatchObject({
      valid: false,
      error: 'The CAdES signature lacks its signing-certificate attribute.',
    });
  });
});

/**
 * A CAdES SignedData whose signed attributes carry `crl` in adbe-revocationInfoArchival, as
 * Adobe's writers put it; the attributes are signed with Node's crypto (OpenSSL's command line
 * cannot add this attribute) with the rsa identity.
 */
function signedWithArchival(data: Uint8Array, crl: Uint8Array): Uint8Array {
  const cert = ssl.der('rsa.pem');
  const tbs = children(cert, children(cert, readElement(cert, 0))[0]!);
  const serial = cert.subarray(tbs[1]!.start, tbs[1]!.end);
  const issuer = cert.subarray(tbs[3]!.start, tbs[3]!.end);
  const oid = (dotted: string) => encode(oidNode(dotted));
  const sha256 = tlv(0x30, oid('2.16.840.1.101.3.4.2.1'));
  const attr = (type: string, value: Uint8Array) => tlv(0x30, oid(type), tlv(0x31, value));
  const essV2 = tlv(0x30, tlv(0x30, tlv(0x30, tlv(0x04, createHash('sha256').update(cert).digest()))));
  const attrs = [
    attr('1.2.840.113549.1.9.3', oid('1.2.840.113549.1.7.1')),
    attr('1.2.840.113549.1.9.4', tlv(0x04, createHash('sha256').update(data).digest())),
    attr('1.2.840.113549.1.9.16.2.47', essV2),
    attr('1.2.840.113583.1.1.8', tlv(0x30, tlv(0xa0, tlv(0x30, crl)))),
  ];
  const signedAttrs = tlv(0x31, ...attrs);
  const key = createPrivateKey(readFileSync(path.join(ssl.dir, 'rsa.key')));
  const signature = sign('sha256', signedAttrs, key);
  const signerInfo = tlv(
    0x30,
    Uint8Array.of(2, 1, 1),
    tlv(0x30, issuer, serial),
    sha256,
    Buffer.concat([Uint8Array.of(0xa0), signedAttrs.subarray(1)]),
    tlv(0x30, oid('1.2.840.113549.1.1.11'), Uint8Array.of(5, 0)),
    tlv(0x04, signature),
  );
  const sd = tlv(
    0x30,
    Uint8Array.of(2, 1, 1),
    tlv(0x31, sha256),
    tlv(0x30, oid('1.2.840.113549.1.7.1')),
    tlv(0xa0, cert),
    tlv(0x31, signerInfo),
  );
  return tlv(0x30, oid('1.2.840.113549.1.7.2'), tlv(0xa0, sd));
}
