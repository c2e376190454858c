/**
 * `@esign/pdf/pool`: what a process needs to hand documents to the document pool, without loading
 * any parser, renderer, font or signing library itself (those load in the pool's worker processes).
 * Processes that answer HTTP import this entry, so their memory holds none of it.
 */
export { DocumentInputError, type DocumentInputErrorCode, SealInputMismatchError } from './ingest/errors.ts';
export { type PoolFile, poolInputPath } from './ingest/ipc-files.ts';
export {
  configureDocumentPool,
  DocumentPoolBusyError,
  type DocumentPoolOptions,
  type DocumentPoolStats,
  documentPoolStats,
  type IsolationLimits,
} from './ingest/isolate.ts';
// The pool's fair scheduler, for other bounded work of the process (bulk send files).
export { createFairScheduler } from './ingest/isolate-pool.ts';
export type {
  PoolTrust,
  SealTaskInput,
  TimestampAuthorityConfig,
  VerifyResult,
} from './ingest/isolate-protocol.ts';
export type { PooledSealed, PooledSigned, SealingOptions } from './ingest/isolate-tasks.ts';
export * from './ingest/pooled.ts';
export type { IngestedDocument, IngestInput } from './ingest/types.ts';
export type { AuditTrailInput } from './seal/audit-trail.ts';
export type { LoadSigningIdentityOptions } from './seal/identity.ts';
export type { SealTrust } from './seal/sign.ts';
export type { TrustFetch } from './seal/trust.ts';
export { TrustServiceError } from './seal/trust-error.ts';
export type { RenderingCheck, RevisionChange, SignatureCheck } from './verify/index.ts';
