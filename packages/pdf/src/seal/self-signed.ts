/**
 * The self-signed sealing identity, written as a password-protected PKCS#12 with pkijs (the same
 * ASN.1 stack the CMS code uses; the key pair and the certificate's signature come from
 * node:crypto).
 *
 * What it holds (an identity written by earlier versions, with node-forge, has the same shape and
 * still loads: test/seal-identity.test.ts):
 * - an RSA-2048 key; a v3 certificate signed with sha256WithRSAEncryption, a positive random
 *   16-byte serial, subject = issuer = `CN=<common name>` (UTF8String), valid from a day ago for
 *   ten years, with the extensions basicConstraints (critical, not a CA), keyUsage (critical,
 *   digitalSignature + nonRepudiation) and subjectKeyIdentifier (SHA-1 of the public key);
 * - PKCS#12: the certificate bag and the key bag in two unencrypted safe contents, the key shrouded
 *   with PBES2 (PBKDF2, 10,000 iterations, AES-256-CBC), both bags carrying friendlyName and
 *   localKeyId (SHA-1 of the certificate), integrity by a password MAC. PBKDF2's PRF and the MAC
 *   use SHA-256 where node-forge used SHA-1 (OpenSSL 3's defaults; every reader accepts both).
 */
import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

const OID_COMMON_NAME = '2.5.4.3';
const OID_BASIC_CONSTRAINTS = '2.5.29.19';
const OID_KEY_USAGE = '2.5.29.15';
const OID_SUBJECT_KEY_IDENTIFIER = '2.5.29.14';
const OID_SHA256_WITH_RSA = '1.2.840.113549.1.1.11';
const OID_FRIENDLY_NAME = '1.2.840.113549.1.9.20';
const OID_LOCAL_KEY_ID = '1.2.840.113549.1.9.21';
const OID_SHROUDED_KEY_BAG = '1.2.840.113549.1.12.10.1.2';
const OID_CERT_BAG = '1.2.840.113549.1.12.10.1.3';

const KDF_ITERATIONS = 10_000;
const DAY_MS = 24 * 3600 * 1000;

const engine = new pkijs.CryptoEngine({ name: 'node', crypto: globalThis.crypto });

const sha1 = (bytes: Uint8Array) => new Uint8Array(createHash('sha1').update(bytes).digest());

function distinguishedName(commonName: string): pkijs.RelativeDistinguishedNames {
  return new pkijs.RelativeDistinguishedNames({
    typesAndValues: [
      new pkijs.AttributeTypeAndValue({
        type: OID_COMMON_NAME,
        value: new asn1js.Utf8String({ value: commonName }),
      }),
    ],
  });
}

function extension(extnID: string, value: { toBER(sizeOnly?: boolean): ArrayBuffer }, critical = false) {
  return new pkijs.Extension({ extnID, critical, extnValue: value.toBER(false) });
}

/**
 * A positive 16-byte serial whose DER INTEGER is minimal: the top byte has its high bit clear
 * (positive) and a bit below it set (never a leading zero, which OpenSSL refuses as padding; with
 * a plain `& 0x7f`, one identity in 256 could not be loaded).
 */
function certificateSerial(random: Uint8Array = randomBytes(16)): Uint8Array<ArrayBuffer> {
  const serial = new Uint8Array(random);
  serial[0] = ((serial[0] ?? 0) & 0x7f) | 0x40;
  return serial;
}

/** A self-signed certificate for the key pair, signed with node:crypto. */
function selfSignedCertificate(
  keys: { publicKeyDer: Uint8Array<ArrayBuffer>; privateKey: Parameters<typeof sign>[2] },
  commonName: string,
  now: number,
  serialRandom?: Uint8Array,
): pkijs.Certificate {
  const spki = pkijs.PublicKeyInfo.fromBER(keys.publicKeyDer);
  const serial = certificateSerial(serialRandom);
  const sha256WithRsa = () =>
    new pkijs.AlgorithmIdentifier({ algorithmId: OID_SHA256_WITH_RSA, algorithmParams: new asn1js.Null() });
  // Whole seconds: UTCTime has no fraction.
  const second = (ms: number) => new Date(Math.floor(ms / 1000) * 1000);
  const cert = new pkijs.Certificate({
    version: 2,
    serialNumber: new asn1js.Integer({ valueHex: serial }),
    signature: sha256WithRsa(),
    issuer: distinguishedName(commonName),
    subject: distinguishedName(commonName),
    notBefore: new pkijs.Time({ type: 0, value: second(now - DAY_MS) }),
    notAfter: new pkijs.Time({ type: 0, value: second(now + 10 * 365 * DAY_MS) }),
    subjectPublicKeyInfo: spki,
    extensions: [
      extension(OID_BASIC_CONSTRAINTS, new pkijs.BasicConstraints({ cA: false }).toSchema(), true),
      // digitalSignature (bit 0) and nonRepudiation (bit 1).
      extension(
        OID_KEY_USAGE,
        new asn1js.BitString({ valueHex: new Uint8Array([0xc0]), unusedBits: 6 }),
        true,
      ),
      extension(
        OID_SUBJECT_KEY_IDENTIFIER,
        new asn1js.OctetString({ valueHex: sha1(spki.subjectPublicKey.valueBlock.valueHexView) }),
      ),
    ],
    signatureAlgorithm: sha256WithRsa(),
  });
  cert.tbsView = new Uint8Array(cert.encodeTBS().toBER(false));
  cert.signatureValue = new asn1js.BitString({ valueHex: sign('sha256', cert.tbsView, keys.privateKey) });
  return cert;
}

/** Generates an RSA-2048 key and its self-signed certificate, as a PKCS#12 under `password`. */
export async function generateSelfSignedP12(
  password: string,
  commonName: string,
  now = Date.now(),
  serialRandom?: Uint8Array,
): Promise<Uint8Array> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const cert = selfSignedCertificate(
    { publicKeyDer: new Uint8Array(publicKey.export({ type: 'spki', format: 'der' })), privateKey },
    commonName,
    now,
    serialRandom,
  );
  const certDer = new Uint8Array(cert.toSchema(false).toBER(false));
  const passwordBytes = new TextEncoder().encode(password).buffer;
  const bagAttributes = () => [
    new pkijs.Attribute({ type: OID_FRIENDLY_NAME, values: [new asn1js.BmpString({ value: commonName })] }),
    new pkijs.Attribute({
      type: OID_LOCAL_KEY_ID,
      values: [new asn1js.OctetString({ valueHex: sha1(certDer) })],
    }),
  ];

  const keyBag = new pkijs.PKCS8ShroudedKeyBag({
    parsedValue: pkijs.PrivateKeyInfo.fromBER(privateKey.export({ type: 'pkcs8', format: 'der' })),
  });
  await keyBag.makeInternalValues(
    {
      password: passwordBytes,
      // pkijs draws the IV itself (its type asks for one it never reads).
      contentEncryptionAlgorithm: { name: 'AES-CBC', length: 256 } as pkijs.ContentEncryptionAlgorithm,
      hmacHashAlgorithm: 'SHA-256',
      iterationCount: KDF_ITERATIONS,
    },
    engine,
  );
  const bags = [
    new pkijs.SafeBag({
      bagId: OID_CERT_BAG,
      bagValue: new pkijs.CertBag({ parsedValue: cert }),
      bagAttributes: bagAttributes(),
    }),
    new pkijs.SafeBag({ bagId: OID_SHROUDED_KEY_BAG, bagValue: keyBag, bagAttributes: bagAttributes() }),
  ];
  const authenticatedSafe = new pkijs.AuthenticatedSafe({
    parsedValue: {
      safeContents: bags.map((bag) => ({
        privacyMode: 0,
        value: new pkijs.SafeContents({ safeBags: [bag] }),
      })),
    },
  });
  await authenticatedSafe.makeInternalValues({ safeContents: bags.map(() => ({})) }, engine);
  const pfx = new pkijs.PFX({ parsedValue: { integrityMode: 0, authenticatedSafe } });
  await pfx.makeInternalValues(
    {
      password: passwordBytes,
      iterations: KDF_ITERATIONS,
      pbkdf2HashAlgorithm: 'SHA-256',
      hmacHashAlgorithm: 'SHA-256',
    },
    engine,
  );
  return new Uint8Array(pfx.toSchema().toBER(false));
}
