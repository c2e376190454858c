import { spawn } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { cpSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { describe, expect, it } from 'vitest';
import { loadSigningIdentity, sealDocument } from '../src/seal/index.ts';
import { generateSelfSignedP12 } from '../src/seal/self-signed.ts';
import { expectValidSignedPdf, sourcePdf, tempDir, writeTemp } from './seal-helpers.ts';

const identityModule = fileURLToPath(new URL('../src/seal/identity.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
/**
 * A DATA_DIR whose `signing/` was written by the generator before this one (node-forge, 2026-11-27):
 * a test key, used nowhere else.
 */
const forgeDataDir = fileURLToPath(new URL('./fixtures/node-forge-identity', import.meta.url));
const FORGE_FINGERPRINT = '250b761b91af6ac4cd2ddb9d367b102de198fe90d1a7727dfaff1a5daea7bddb';

const engine = new pkijs.CryptoEngine({ name: 'node', crypto: globalThis.crypto });
const hex = (bytes: ArrayBuffer | Uint8Array) => Buffer.from(new Uint8Array(bytes)).toString('hex');
const sha1Hex = (bytes: Uint8Array) => createHash('sha1').update(bytes).digest('hex');

/** What a stored identity is made of, read back with pkijs: certificate and PKCS#12 layout. */
async function describeIdentity(dataDir: string) {
  const p12 = new Uint8Array(readFileSync(path.join(dataDir, 'signing', 'signing.p12')));
  const password = new TextEncoder().encode(
    readFileSync(path.join(dataDir, 'signing', 'signing.password'), 'utf8').trim(),
  ).buffer;
  const pfx = pkijs.PFX.fromBER(p12);
  await pfx.parseInternalValues({ password, checkIntegrity: true }, engine);
  const safe = pfx.parsedValue?.authenticatedSafe;
  if (!safe) throw new Error('no authenticated safe');
  const contents = safe.safeContents.map(() => ({ password }));
  await safe.parseInternalValues({ safeContents: contents }, engine);
  const bags = (safe.parsedValue?.safeContents ?? []).flatMap(
    (entry: { value: pkijs.SafeContents }) => entry.value.safeBags,
  );
  const certBag = bags.find((bag: pkijs.SafeBag) => bag.bagValue instanceof pkijs.CertBag)
    ?.bagValue as pkijs.CertBag;
  const cert = certBag.parsedValue as pkijs.Certificate;
  const certDer = new Uint8Array(cert.toSchema().toBER(false));
  const x509 = new X509Certificate(certDer);
  const keyBag = bags.find((bag: pkijs.SafeBag) => bag.bagValue instanceof pkijs.PKCS8ShroudedKeyBag)
    ?.bagValue as pkijs.PKCS8ShroudedKeyBag;
  const pbes2 = new pkijs.PBES2Params({ schema: keyBag.encryptionAlgorithm.algorithmParams });
  const pbkdf2 = new pkijs.PBKDF2Params({ schema: pbes2.keyDerivationFunc.algorithmParams });
  const attributes = (bag: pkijs.SafeBag) =>
    Object.fromEntries(
      (bag.bagAttributes ?? []).map((a) => {
        const v = a.values[0];
        // friendlyName's text; localKeyId differs per certificate (checked below as its SHA-1).
        return [a.type, v instanceof asn1js.BmpString ? v.valueBlock.value : v.constructor.name];
      }),
    );
  const ski = cert.extensions?.find((e) => e.extnID === '2.5.29.14');
  const skiValue = asn1js.fromBER(ski?.extnValue.valueBlock.valueHexView ?? new Uint8Array()).result;
  return {
    certificate: {
      version: cert.version,
      signatureAlgorithm: cert.signatureAlgorithm.algorithmId,
      keyType: x509.publicKey.asymmetricKeyType,
      modulusLength: x509.publicKey.asymmetricKeyDetails?.modulusLength,
      subject: x509.subject,
      selfIssued: x509.issuer === x509.subject && x509.verify(x509.publicKey),
      subjectTag: cert.subject.typesAndValues[0]?.value.constructor.name,
      serialBytes: cert.serialNumber.valueBlock.valueHexView.length,
      serialPositive: ((cert.serialNumber.valueBlock.valueHexView[0] ?? 0) & 0x80) === 0,
      validDays: (Date.parse(x509.validTo) - Date.parse(x509.validFrom)) / 86_400_000,
      extensions: cert.extensions?.map((e) => ({
        id: e.extnID,
        critical: e.critical,
        value: e.extnID === '2.5.29.14' ? 'sha1(key)' : hex(e.extnValue.valueBlock.valueHexView),
      })),
      skiIsKeySha1:
        hex((skiValue as asn1js.OctetString).valueBlock.valueHexView) ===
        createHash('sha1')
          .update(cert.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView)
          .digest('hex'),
    },
    notBefore: new Date(x509.validFrom),
    p12: {
      safeContents: safe.safeContents.map((c) => c.contentType),
      bags: bags.map((bag: pkijs.SafeBag) => bag.bagId),
      keyEncryption: [keyBag.encryptionAlgorithm.algorithmId, pbes2.encryptionScheme.algorithmId],
      kdfIterations: pbkdf2.iterationCount,
      attributes: bags.map(attributes),
      localKeyIdIsCertSha1: bags.every((bag: pkijs.SafeBag) => {
        const id = bag.bagAttributes?.find((a) => a.type === '1.2.840.113549.1.9.21')?.values[0];
        return id instanceof asn1js.OctetString && hex(id.valueBlock.valueHexView) === sha1Hex(certDer);
      }),
      macIterations: pfx.macData?.iterations,
    },
  };
}

function runChild(script: string, dataDir: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script, dataDir], { cwd: repoRoot });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('close', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(err))));
  });
}

describe('loadSigningIdentity: the sealing certificate', () => {
  it('generates a self-signed RSA-2048 certificate once, stores it as PKCS#12 + password (mode 0600) and reuses it', async () => {
    const dataDir = tempDir('identity');
    const first = await loadSigningIdentity({ dataDir, commonName: 'Example Sealing' });
    expect(first.subject).toBe('CN=Example Sealing');
    expect(first.fingerprintSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(first.certificatePem).toContain('-----BEGIN CERTIFICATE-----');
    expect(first.signer.keyType).toBe('RSA');
    expect(first.generated).toBe(true);
    for (const file of ['signing.p12', 'signing.password']) {
      expect(statSync(path.join(dataDir, 'signing', file)).mode & 0o777).toBe(0o600);
    }
    const again = await loadSigningIdentity({ dataDir });
    expect(again.fingerprintSha256).toBe(first.fingerprintSha256);
  });

  it('every random serial makes a loadable certificate: random bytes that start 00 00 (a non-minimal DER INTEGER OpenSSL refuses, one identity in 256 before) or ff ff give a positive, minimal 16-byte serial', async () => {
    for (const first of [0x00, 0x80, 0xff]) {
      const random = new Uint8Array(16).fill(first);
      const p12 = await generateSelfSignedP12('pw', 'serial test', Date.now(), random);
      const identity = await loadSigningIdentity({ p12, password: 'pw', dataDir: tempDir('serial') });
      const serial = new X509Certificate(identity.certificatePem).serialNumber;
      expect(serial).toHaveLength(32);
      expect(Number.parseInt(serial.slice(0, 2), 16)).toBeGreaterThanOrEqual(0x40);
      expect(Number.parseInt(serial.slice(0, 2), 16)).toBeLessThan(0x80);
    }
  });

  it('loads an operator-provided PKCS#12 and rejects a wrong password', async () => {
    const dataDir = tempDir('identity-p12');
    const generated = await loadSigningIdentity({ dataDir });
    const p12 = new Uint8Array(readFileSync(path.join(dataDir, 'signing', 'signing.p12')));
    const password = readFileSync(path.join(dataDir, 'signing', 'signing.password'), 'utf8');
    const loaded = await loadSigningIdentity({ p12, password, dataDir: tempDir('unused') });
    expect(loaded.fingerprintSha256).toBe(generated.fingerprintSha256);
    expect(loaded.generated).toBe(false);
    await expect(loadSigningIdentity({ p12, password: 'wrong', dataDir })).rejects.toThrow();
  });

  it('concurrent first calls from several processes end with one and the same certificate', async () => {
    const dataDir = tempDir('identity-race');
    const script = path.join(dataDir, 'load.mts');
    writeFileSync(
      script,
      `import { loadSigningIdentity } from ${JSON.stringify(identityModule)};\n` +
        'const id = await loadSigningIdentity({ dataDir: process.argv[2] });\n' +
        'process.stdout.write(id.fingerprintSha256);\n',
    );
    const prints = await Promise.all([1, 2, 3, 4].map(() => runChild(script, dataDir)));
    expect(new Set(prints).size).toBe(1);
    const inProcess = await loadSigningIdentity({ dataDir });
    expect(prints[0]).toBe(inProcess.fingerprintSha256);
  });

  it('an identity stored by the node-forge generator (fixture) still loads, with its fingerprint, and seals a PDF pdfsig validates', async () => {
    const dataDir = tempDir('identity-forge');
    cpSync(forgeDataDir, dataDir, { recursive: true });
    const identity = await loadSigningIdentity({ dataDir });
    expect(identity.fingerprintSha256).toBe(FORGE_FINGERPRINT);
    expect(identity.subject).toBe('CN=esign document sealing');
    expect(identity.notBefore.toISOString()).toBe('2026-11-26T17:21:08.000Z');
    expect(identity.notAfter.toISOString()).toBe('2036-11-24T17:21:08.000Z');
    expect(identity.generated).toBe(true);
    expect(identity.signer.keyType).toBe('RSA');
    const sealed = await sealDocument({
      pdf: await sourcePdf(1),
      values: [],
      identity,
      name: 'forge-identity',
    });
    const sig = expectValidSignedPdf(writeTemp(dataDir, 'sealed.pdf', sealed));
    expect(sig).toContain('Signer full Distinguished Name: CN=esign document sealing');
  });

  it('a newly generated identity has the node-forge identity’s certificate (RSA-2048, ten years from a day ago, same subject and extensions) and PKCS#12 layout', async () => {
    const dataDir = tempDir('identity-shape');
    const before = Date.now();
    await loadSigningIdentity({ dataDir });
    const fresh = await describeIdentity(dataDir);
    const forge = await describeIdentity(forgeDataDir);
    expect(fresh.certificate).toEqual(forge.certificate);
    expect(fresh.certificate).toMatchObject({
      keyType: 'rsa',
      modulusLength: 2048,
      subject: 'CN=esign document sealing',
      selfIssued: true,
      subjectTag: 'Utf8String',
      serialBytes: 16,
      serialPositive: true,
      validDays: 10 * 365 + 1,
      skiIsKeySha1: true,
    });
    expect(fresh.certificate.extensions?.map((e) => [e.id, e.critical])).toEqual([
      ['2.5.29.19', true],
      ['2.5.29.15', true],
      ['2.5.29.14', false],
    ]);
    expect(Math.abs(fresh.notBefore.getTime() - (before - 86_400_000))).toBeLessThan(5_000);
    expect(fresh.p12).toEqual(forge.p12);
    expect(fresh.p12).toMatchObject({
      bags: ['1.2.840.113549.1.12.10.1.3', '1.2.840.113549.1.12.10.1.2'],
      keyEncryption: ['1.2.840.113549.1.5.13', '2.16.840.1.101.3.4.1.42'],
      kdfIterations: 10_000,
      localKeyIdIsCertSha1: true,
      macIterations: 10_000,
    });
  });
});
