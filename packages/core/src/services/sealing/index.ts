export { COMPLETION_LINK_TTL_SECONDS } from './completion-mails.ts';
export { getSigningIdentity, readP12 } from './identity.ts';
export { queueSealing, requeueStuckSealing, retrySealing, SEAL_JOB, SEAL_MAX_ATTEMPTS } from './queue.ts';
export {
  produceSealedFiles,
  type SealingInfo,
  type SealRun,
  sealRequestJob,
  sealSignatureRequest,
} from './seal.ts';
export { produceSignerCopy, queueSignerCopy, SIGNER_COPY_JOB, signerCopyJob } from './signer-copy.ts';
export { effectiveValue, sealValueOf, sealValuesFor } from './values.ts';
