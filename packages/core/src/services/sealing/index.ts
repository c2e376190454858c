export { queueSealing, SEAL_JOB } from './queue.ts';
export { sealRequestJob } from './seal.ts';
export { queueSignerCopy, SIGNER_COPY_JOB, signerCopyJob } from './signer-copy.ts';
