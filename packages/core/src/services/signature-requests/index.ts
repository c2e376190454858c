export { createSignatureRequest } from './create.ts';

export { queueInvitation, sendQueuedMail } from './invitations.ts';
export {
  cancelSignatureRequest,
  getSignatureRequest,
  remindSigners,
} from './lifecycle.ts';
export { listSignatureRequests } from './list.ts';
export {
  requireRequest,
  senderNameOf,
} from './queries.ts';
export { getSigner, updateSigner } from './signers.ts';
export {
  effectiveStatus,
  effectiveValues,
  signerFields,
} from './status.ts';
