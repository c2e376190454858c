export {
  inspectSignatures,
  isIntact,
  MAX_REVISIONS_CHECKED,
  type RevisionChange,
  type SignatureCheck,
  type SignatureKind,
} from '../verify/index.ts';
export { type AuditTrailInput, buildAuditTrail } from './audit-trail.ts';
export { combineDocuments } from './combine.ts';
export { decodeImageDataUri, type SealArea, type SealValue, type SealValueType } from './draw-values.ts';
export { type LoadSigningIdentityOptions, loadSigningIdentity, type SigningIdentity } from './identity.ts';
export { type SealDocumentInput, sealDocument } from './seal-document.ts';
export { type PadesLevel, type SealTrust, TEST_MARK_TEXT } from './sign.ts';
export {
  createRevocationProvider,
  createTimestampAuthority,
  type TrackedRevocationProvider,
  type TrustFetch,
  TrustServiceError,
} from './trust.ts';
