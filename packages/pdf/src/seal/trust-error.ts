/**
 * A trust service (TSA, OCSP responder, CRL distribution point) did not give what a seal needs.
 * Not a problem with the document: the sealing attempt fails and is retried, never completed
 * without it. In a module of its own, so the pool's process (isolate.ts) can raise it again from
 * a worker's reply without loading the sealing libraries.
 */
export class TrustServiceError extends Error {
  override name = 'TrustServiceError';
}
