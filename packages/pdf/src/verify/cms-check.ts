import { createHash } from 'node:crypto';
import { parseCmsCached } from '../seal/signature-check.ts';

export interface CmsInput {
  contents: Uint8Array;
  subFilter: string;
  documentTimestamp: boolean;
  signed: Uint8Array[];
}

export interface CmsResult {
  valid: boolean;
  error?: string;
  signerSubject: string | null;
  signerCertificateSha256: string | null;
  certificates: Uint8Array[];
  signingTime: string | null;
  timestampTime: string | null;
  timestampAuthority: string | null;
  timestampCertificates: Uint8Array[];
  weakAlgorithms: string[];
  revocation: { crls: Uint8Array[]; ocsps: Uint8Array[] };
}

export function checkCms(input: CmsInput): CmsResult {
  const parsed = parseCmsCached(Buffer.from(input.contents).toString('hex'), input.documentTimestamp);
  const result: CmsResult = {
    valid: false,
    signerSubject: parsed.signerSubject,
    signerCertificateSha256: parsed.signerCertificateSha256,
    certificates: parsed.certificates,
    signingTime: parsed.signingTime,
    timestampTime: parsed.timestampTime,
    timestampAuthority: parsed.timestampAuthority,
    timestampCertificates: parsed.timestampCertificates,
    weakAlgorithms: [],
    revocation: { crls: [], ocsps: [] },
  };
  if (parsed.error) return { ...result, error: parsed.error };
  const hash = createHash(parsed.digestAlg);
  for (const part of input.signed) hash.update(part);
  if (!parsed.messageDigest.equals(hash.digest()))
    return { ...result, error: 'Document digest does not match the signed message digest' };
  return { ...result, valid: true };
}
