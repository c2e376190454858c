export { type AuditTrailInput, buildAuditTrail } from './audit-trail.ts';
export { combineDocuments } from './combine.ts';
export { decodeImageDataUri, type SealArea, type SealValue, type SealValueType } from './draw-values.ts';
export { type LoadSigningIdentityOptions, loadSigningIdentity, type SigningIdentity } from './identity.ts';
export { type SealDocumentInput, sealDocument } from './seal-document.ts';
export { TEST_MARK_TEXT } from './sign.ts';
export { inspectSignatures, isIntact, type SignatureCheck } from './verify.ts';
