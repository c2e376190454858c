import { createHash } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

// Which certificates a revocation entry speaks about, so that validation data counts for a
// signature only when it is about that signature's certificates (ETSI EN 319 102-1, 5.2.5: the
// revocation status information of each certificate of the chain). A CRL covers the certificates
// its issuer issued (RFC 5280, 5.1.2.3: the CRL's issuer is the certificate's issuer); an OCSP
// response covers the certificates its single responses name by issuer-name hash and serial
// number (RFC 6960, 4.1.1, CertID). An entry that cannot be read covers nothing.

/** What one entry covers: CRL issuers (DER of the Name, hex) and OCSP CertIDs. */
export interface Coverage {
  crlIssuers: Set<string>;
  ocsp: { algorithm: string; issuerNameHash: string; serial: string }[];
}

export const emptyCoverage = (): Coverage => ({ crlIssuers: new Set(), ocsp: [] });

const HASHES: Record<string, string> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};

const hex = (b: ArrayBuffer | Uint8Array) =>
  Buffer.from(b instanceof Uint8Array ? b : new Uint8Array(b)).toString('hex');

function parse<T>(der: Uint8Array, make: (schema: asn1js.AsnType) => T): T | null {
  // A copy of exactly these bytes (a Buffer's slice() is a view of its pool, not a copy).
  const asn = asn1js.fromBER(Uint8Array.prototype.slice.call(der).buffer);
  if (asn.offset === -1) return null;
  try {
    return make(asn.result);
  } catch {
    return null;
  }
}

/** A Name's DER as it was read (re-encoding may change string types), else as pkijs encodes it. */
function nameDer(name: pkijs.RelativeDistinguishedNames): Uint8Array {
  const read = name.valueBeforeDecode;
  return new Uint8Array(read && read.byteLength > 0 ? read : name.toSchema().toBER());
}

/** Adds what a DER CRL covers. */
export function coverCrl(der: Uint8Array, into: Coverage): void {
  const crl = parse(der, (schema) => new pkijs.CertificateRevocationList({ schema }));
  if (crl) into.crlIssuers.add(hex(nameDer(crl.issuer)));
}

/** The BasicOCSPResponse of an OCSPResponse, or the BasicOCSPResponse itself (some writers store that). */
function basicResponse(der: Uint8Array): pkijs.BasicOCSPResponse | null {
  const full = parse(der, (schema) => new pkijs.OCSPResponse({ schema }));
  const inner = full?.responseBytes?.response.valueBlock.valueHexView;
  if (inner) return parse(inner, (schema) => new pkijs.BasicOCSPResponse({ schema }));
  return parse(der, (schema) => new pkijs.BasicOCSPResponse({ schema }));
}

/** Adds what a DER OCSP response covers. */
export function coverOcsp(der: Uint8Array, into: Coverage): void {
  const basic = basicResponse(der);
  for (const single of basic?.tbsResponseData.responses ?? []) {
    const id = single.certID;
    const algorithm = HASHES[id.hashAlgorithm.algorithmId];
    if (!algorithm) continue;
    into.ocsp.push({
      algorithm,
      issuerNameHash: hex(id.issuerNameHash.valueBlock.valueHexView),
      serial: hex(id.serialNumber.valueBlock.valueHexView),
    });
  }
}

/** Whether the coverage holds revocation information about this certificate (DER). */
export function covers(coverage: Coverage, certificate: Uint8Array): boolean {
  const cert = parse(certificate, (schema) => new pkijs.Certificate({ schema }));
  if (!cert) return false;
  const issuer = nameDer(cert.issuer);
  if (coverage.crlIssuers.has(hex(issuer))) return true;
  const serial = hex(cert.serialNumber.valueBlock.valueHexView);
  return coverage.ocsp.some(
    (o) => o.serial === serial && createHash(o.algorithm).update(issuer).digest('hex') === o.issuerNameHash,
  );
}

/** The union of two coverages (a later revision's DSS adds to an earlier one's). */
export function mergeCoverage(a: Coverage, b: Coverage): Coverage {
  return { crlIssuers: new Set([...a.crlIssuers, ...b.crlIssuers]), ocsp: [...a.ocsp, ...b.ocsp] };
}
