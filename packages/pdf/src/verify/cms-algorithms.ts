import { createHash, createVerify, verify as cryptoVerify, type X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

// The algorithms a CMS signature of a real signed PDF uses (RFC 5652, RFC 5754, RFC 4055,
// RFC 5758, RFC 8702 for SHA-3, RFC 8419 for Ed25519), checked with Node's crypto: which digest an
// OID names, whether a signature value verifies, and whether the ESS signing-certificate(-v2)
// attribute names the certificate. Shared by the verifier (cms-check.ts) and the TSA client.

/** Digest algorithm OIDs → Node hash names. */
export const DIGESTS: Record<string, string> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.4': 'sha224',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
  '2.16.840.1.101.3.4.2.7': 'sha3-224',
  '2.16.840.1.101.3.4.2.8': 'sha3-256',
  '2.16.840.1.101.3.4.2.9': 'sha3-384',
  '2.16.840.1.101.3.4.2.10': 'sha3-512',
};

/** Signature OIDs that fix their hash: RSA PKCS #1 v1.5 and ECDSA, SHA-1, SHA-2 and SHA-3. */
const RSA_WITH: Record<string, string> = {
  '1.2.840.113549.1.1.5': 'sha1',
  '1.2.840.113549.1.1.14': 'sha224',
  '1.2.840.113549.1.1.11': 'sha256',
  '1.2.840.113549.1.1.12': 'sha384',
  '1.2.840.113549.1.1.13': 'sha512',
  '2.16.840.1.101.3.4.3.13': 'sha3-224',
  '2.16.840.1.101.3.4.3.14': 'sha3-256',
  '2.16.840.1.101.3.4.3.15': 'sha3-384',
  '2.16.840.1.101.3.4.3.16': 'sha3-512',
};
const ECDSA_WITH: Record<string, string> = {
  '1.2.840.10045.4.1': 'sha1',
  '1.2.840.10045.4.3.1': 'sha224',
  '1.2.840.10045.4.3.2': 'sha256',
  '1.2.840.10045.4.3.3': 'sha384',
  '1.2.840.10045.4.3.4': 'sha512',
  '2.16.840.1.101.3.4.3.9': 'sha3-224',
  '2.16.840.1.101.3.4.3.10': 'sha3-256',
  '2.16.840.1.101.3.4.3.11': 'sha3-384',
  '2.16.840.1.101.3.4.3.12': 'sha3-512',
};
/** BSI TR-03111 ecdsa-plain-*: the signature is r and s side by side (IEEE P1363), not DER (German eIDs). */
const ECDSA_PLAIN: Record<string, string> = {
  '0.4.0.127.0.7.1.1.4.1.1': 'sha1',
  '0.4.0.127.0.7.1.1.4.1.2': 'sha224',
  '0.4.0.127.0.7.1.1.4.1.3': 'sha256',
  '0.4.0.127.0.7.1.1.4.1.4': 'sha384',
  '0.4.0.127.0.7.1.1.4.1.5': 'sha512',
};
const RSA_ENCRYPTION = '1.2.840.113549.1.1.1';
const RSA_PSS = '1.2.840.113549.1.1.10';
const EC_PUBLIC_KEY = '1.2.840.10045.2.1';
const ED25519 = '1.3.101.112';
const MGF1 = '1.2.840.113549.1.1.8';

/** How a weak hash is reported ('sha1' → 'SHA-1'); null for a hash that is not weak. */
export const weakHash = (hash: string): string | null => (hash === 'sha1' ? 'SHA-1' : null);

export interface AlgorithmId {
  oid: string;
  /** The parameters' encoding; null when absent. */
  params: Uint8Array | null;
}

/** An algorithm's parameters are the NULL element. */
export const isNull = (params: Uint8Array | null) =>
  params !== null && params.length === 2 && params[0] === 5 && params[1] === 0;

/**
 * Verifies `signature` over the concatenation of `data` with the signer's key. `digest` is the
 * SignerInfo's digest algorithm (the hash for rsaEncryption and id-ecPublicKey, which name none).
 * Returns the hash that verified (to report a weak one), or null when the signature is wrong.
 */
export function verifySignatureValue(
  algorithm: AlgorithmId,
  digest: string,
  data: Uint8Array[],
  signature: Uint8Array,
  cert: X509Certificate,
): string | null {
  const key = cert.publicKey;
  const { oid, params } = algorithm;
  const check = (hash: string, options: object): boolean => {
    const verifier = createVerify(hash);
    for (const part of data) verifier.update(part);
    return verifier.verify({ key, ...options }, signature);
  };
  // Parameters are fixed for each: RSA PKCS #1 v1.5 takes NULL (or none), ECDSA and EdDSA none.
  const paramsFit = (allowNull: boolean) => {
    if (params !== null && !(allowNull && isNull(params)))
      throw new Error(`Unexpected parameters for signature algorithm ${oid}`);
  };
  if (oid === RSA_PSS) {
    const pss = pssParams(params);
    return check(pss.hash, { padding: 6, saltLength: pss.saltLength }) ? pss.hash : null;
  }
  if (oid === ED25519) {
    paramsFit(false);
    return cryptoVerify(null, Buffer.concat(data), key, signature) ? 'sha512' : null;
  }
  const rsa = oid === RSA_ENCRYPTION || oid in RSA_WITH;
  const plain = oid in ECDSA_PLAIN;
  const ecdsa = oid === EC_PUBLIC_KEY || oid in ECDSA_WITH || plain;
  if (!rsa && !ecdsa) throw new Error(`Unsupported signature algorithm ${oid}`);
  // BSI plain ECDSA identifiers may carry the curve's parameters; the key names the curve anyway.
  if (!plain) paramsFit(rsa);
  const keyType = key.asymmetricKeyType;
  if ((rsa && keyType !== 'rsa') || (ecdsa && keyType !== 'ec'))
    throw new Error(`Signature algorithm ${oid} does not fit the signer's ${keyType} key`);
  const options = ecdsa ? { dsaEncoding: plain ? 'ieee-p1363' : 'der' } : {};
  // The hash the algorithm names, else the SignerInfo's; a signature made with the SignerInfo's
  // digest under an algorithm naming another (some signers write sha1WithRSA for any digest)
  // is still that key's signature over that hash, as OpenSSL accepts it.
  const hashes = [...new Set([RSA_WITH[oid] ?? ECDSA_WITH[oid] ?? ECDSA_PLAIN[oid] ?? digest, digest])];
  return hashes.find((hash) => check(hash, options)) ?? null;
}

function pssParams(params: Uint8Array | null): { hash: string; saltLength: number } {
  if (!params) return { hash: 'sha1', saltLength: 20 }; // RFC 4055 defaults
  const asn = asn1js.fromBER(params);
  if (asn.offset !== params.length) throw new Error('Malformed RSASSA-PSS parameters');
  const parsed = new pkijs.RSASSAPSSParams({ schema: asn.result });
  const hash = DIGESTS[parsed.hashAlgorithm.algorithmId];
  if (!hash) throw new Error(`Unsupported RSASSA-PSS hash ${parsed.hashAlgorithm.algorithmId}`);
  const mgf = parsed.maskGenAlgorithm;
  const mgfHash =
    mgf.algorithmId === MGF1
      ? DIGESTS[new pkijs.AlgorithmIdentifier({ schema: mgf.algorithmParams }).algorithmId]
      : undefined;
  // Node's PSS verification uses MGF1 with the signature's own hash.
  if (mgfHash !== hash) throw new Error('Unsupported RSASSA-PSS mask generation (MGF1 with another hash)');
  if (parsed.trailerField !== 1) throw new Error('Unsupported RSASSA-PSS trailer field');
  return { hash, saltLength: parsed.saltLength };
}

/**
 * ESS signing-certificate (RFC 2634) or signing-certificate-v2 (RFC 5035) attribute value: its
 * first ESSCertID's hash must be the signer certificate's. Throws when it is not.
 */
export function checkSigningCertificate(value: asn1js.AsnType, certDer: Uint8Array, v2: boolean): void {
  if (!(value instanceof asn1js.Sequence)) throw new Error('Malformed signing-certificate attribute');
  const certs = value.valueBlock.value[0];
  const first = certs instanceof asn1js.Sequence ? certs.valueBlock.value[0] : undefined;
  if (!(first instanceof asn1js.Sequence)) throw new Error('Malformed signing-certificate attribute');
  const parts = first.valueBlock.value;
  // ESSCertID hashes with SHA-1; ESSCertIDv2 names its hash first, SHA-256 when left out.
  let alg = v2 ? 'sha256' : 'sha1';
  let hashPart = parts[0];
  if (v2 && parts[0] instanceof asn1js.Sequence) {
    const oid = parts[0].valueBlock.value[0];
    alg = (oid instanceof asn1js.ObjectIdentifier && DIGESTS[oid.valueBlock.toString()]) || 'unknown';
    hashPart = parts[1];
  }
  if (!(hashPart instanceof asn1js.OctetString) || alg === 'unknown') {
    throw new Error('Malformed signing-certificate attribute');
  }
  const expected = createHash(alg).update(certDer).digest();
  if (!Buffer.from(hashPart.valueBlock.valueHexView).equals(expected)) {
    throw new Error('signing-certificate attribute does not match the signer certificate');
  }
}
