import type { PoolTrust, TrustFetch } from '@esign/pdf/pool';
import { guardedFetch } from '@esign/webhooks';
import type { Config } from '../../config.ts';
import type { CoreDeps } from '../../context.ts';

// The trust services of one sealing run (docs/verify.md, Levels): with TSA_URL set, every sealed
// file gets an RFC 3161 signature timestamp, a DSS with the certificate chains and their OCSP
// responses / CRLs, and a document timestamp (PAdES B-LTA); without it, B-B. The sealing itself
// runs in a worker process of the document pool; every TSA / OCSP / CRL request it needs is made
// here, in this process, through the outbound guard (OCSP and CRL addresses come from
// certificates, not from us), and its answer handed to the worker (packages/pdf, isolate.ts).

type TrustConfig = Pick<Config, 'TSA_URL' | 'TSA_USERNAME' | 'TSA_PASSWORD' | 'WEBHOOK_ALLOW_PRIVATE'>;

/** Time for one TSA / OCSP / CRL exchange, and the largest answer accepted. */
export const TRUST_TIMEOUT_MS = 20_000;
export const TRUST_MAX_BYTES = 5 * 1024 * 1024;

export interface TrustLimits {
  timeoutMs?: number;
  maxBytes?: number;
}

/** One TSA / OCSP / CRL exchange through the outbound guard, with its time and size limits. */
function trustFetch(
  config: Pick<TrustConfig, 'WEBHOOK_ALLOW_PRIVATE'>,
  deps: Pick<CoreDeps, 'outbound'>,
  limits: TrustLimits = {},
): TrustFetch {
  return async (url, init) => {
    const res = await guardedFetch(url, {
      method: init.method,
      headers: init.headers,
      body: init.body,
      timeoutMs: limits.timeoutMs ?? TRUST_TIMEOUT_MS,
      maxBytes: limits.maxBytes ?? TRUST_MAX_BYTES,
      maxRedirects: 2,
      allowPrivate: config.WEBHOOK_ALLOW_PRIVATE || (deps.outbound?.allowPrivate ?? false),
      ca: deps.outbound?.ca,
      lookup: deps.outbound?.lookup,
    });
    return { status: res.status, body: res.body };
  };
}

/**
 * The trust services handed to the document pool: the TSA as plain data (the worker builds its
 * client from it; the password crosses to the worker process, never into a log) and the guarded
 * fetch that makes the worker's exchanges. Undefined without TSA_URL (B-B).
 */
export function sealTrust(
  config: TrustConfig,
  deps: Pick<CoreDeps, 'outbound'>,
  limits: TrustLimits = {},
): PoolTrust | undefined {
  if (!config.TSA_URL) return undefined;
  return {
    tsa: { url: config.TSA_URL, username: config.TSA_USERNAME, password: config.TSA_PASSWORD },
    fetch: trustFetch(config, deps, limits),
  };
}
