import type { AuditTrailInput, PooledSealed, PooledSigned, PoolFile, SealTaskInput } from '@esign/pdf/pool';
import { auditTrailInPool, combineInPool, sealInPool } from '@esign/pdf/pool';
import type { Config } from '../../config.ts';
import type { CoreDeps } from '../../context.ts';
import { signingIdentityOptions } from './identity.ts';
import { sealTrust } from './trust.ts';

// Where one sealing run draws, signs and merges its PDFs: in worker processes of the document
// pool, as the account's work, with the pool's memory and time limits (issue 18: document work
// never runs on the event loop or in the memory of a process that answers HTTP or runs jobs).
// With TSA_URL set, the worker asks this process for each TSA / OCSP / CRL exchange, which makes
// it through the outbound guard (trust.ts); the pool's time limit does not count those waits
// (README, Security; docs/verify.md, Levels).

/** Seals one document, builds the audit trail, merges the combined file. */
export interface Sealer {
  /** The time-stamping authority (TSA_URL) the seals are timestamped by, null for B-B. */
  timestampAuthority: string | null;
  /** The time the TSA certified last (known once a document is sealed), null without a TSA. */
  timestampTime: Date | null;
  /** SHA-256 of the sealing certificate (known once a document is sealed). */
  certificateSha256: string;
  /** Each file comes with its SHA-256, and a sealed one with the original's: hashed in the worker. */
  seal(pdf: Uint8Array | PoolFile, input: Omit<SealTaskInput, 'identity'>): Promise<PooledSealed>;
  auditTrail(input: AuditTrailInput): Promise<PooledSigned>;
  combine(pdfs: Uint8Array[], name: string): Promise<PooledSigned>;
}

/** The sealer of one run: the worker loads the identity itself from its options. */
export async function sealerFor(config: Config, deps: CoreDeps, tenant: string): Promise<Sealer> {
  const identity = await signingIdentityOptions(config);
  const trust = sealTrust(config, deps);
  const opts = { tenant, trust };
  const sealer: Sealer = {
    timestampAuthority: trust?.tsa.url ?? null,
    timestampTime: null,
    certificateSha256: '',
    seal: async (pdf, input) => {
      const sealed = await sealInPool(pdf, { ...input, identity }, opts);
      sealer.certificateSha256 = sealed.certificateSha256;
      sealer.timestampTime = sealed.timestampTime ?? sealer.timestampTime;
      return sealed;
    },
    auditTrail: (input) => auditTrailInPool(input, identity, opts),
    combine: (pdfs, name) => combineInPool(pdfs, identity, name, opts),
  };
  return sealer;
}
