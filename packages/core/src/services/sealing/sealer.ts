import type { AuditTrailInput, SealTaskInput, SealTrust } from '@esign/pdf/pool';
import { auditTrailInPool, combineInPool, sealInPool } from '@esign/pdf/pool';
import type { Config } from '../../config.ts';
import type { CoreDeps } from '../../context.ts';
import { getSigningIdentity, signingIdentityOptions } from './identity.ts';

// Where one sealing run draws, signs and merges its PDFs.
// - No trust services (TSA_URL unset, PAdES B-B): in a worker process of the document pool, as the
//   account's work (issue 18: document work never runs on an HTTP process's event loop).
// - TSA_URL set (B-T and above): in this process (issue 15's code path). The TSA, OCSP and CRL
//   exchanges are functions of SealTrust that go through the outbound guard of this process, and
//   functions cannot cross to a worker process. Known limitation (README, docs/verify.md): with a
//   TSA, sealing runs on the job process's event loop and its memory is not capped by
//   DOCUMENT_MEMORY_MB.

/** Seals one document, builds the audit trail, merges the combined file. */
export interface Sealer {
  /** TSA and revocation services (empty: B-B). Its TSA client remembers the last certified time. */
  trust: SealTrust;
  /** SHA-256 of the sealing certificate (known once a document is sealed). */
  certificateSha256: string;
  seal(pdf: Uint8Array, input: Omit<SealTaskInput, 'identity'>): Promise<Uint8Array>;
  auditTrail(input: AuditTrailInput): Promise<Uint8Array>;
  combine(pdfs: Uint8Array[], name: string): Promise<Uint8Array>;
}

/** The document pool's sealer: the worker loads the identity itself from its options. */
async function poolSealer(config: Config, tenant: string): Promise<Sealer> {
  const identity = await signingIdentityOptions(config);
  const sealer: Sealer = {
    trust: {},
    certificateSha256: '',
    seal: async (pdf, input) => {
      const sealed = await sealInPool(pdf, { ...input, identity }, { tenant });
      sealer.certificateSha256 = sealed.certificateSha256;
      return sealed.pdf;
    },
    auditTrail: (input) => auditTrailInPool(input, identity, { tenant }),
    combine: (pdfs, name) => combineInPool(pdfs, identity, name, { tenant }),
  };
  return sealer;
}

/** This process's sealer, with the TSA / OCSP / CRL fetched through the outbound guard. */
async function inProcessSealer(config: Config, deps: CoreDeps): Promise<Sealer> {
  const [{ sealDocument, buildAuditTrail, combineDocuments }, { sealTrust }] = await Promise.all([
    import('@esign/pdf'),
    import('./trust.ts'),
  ]);
  const identity = await getSigningIdentity(config);
  const trust = sealTrust(config, deps);
  return {
    trust,
    certificateSha256: identity.fingerprintSha256,
    seal: (pdf, input) => sealDocument({ ...input, pdf, identity, trust }),
    auditTrail: (input) => buildAuditTrail(input, identity, trust),
    combine: (pdfs, name) => combineDocuments(pdfs, identity, name, trust),
  };
}

/** The sealer of one run: in the document pool without trust services, in this process with them. */
export function sealerFor(config: Config, deps: CoreDeps, tenant: string): Promise<Sealer> {
  return config.TSA_URL ? inProcessSealer(config, deps) : poolSealer(config, tenant);
}
