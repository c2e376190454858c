export {
  assertCanSend,
  type CreationHook,
  createSignatureRequest,
  insertSignatureRequest,
} from './create.ts';
export {
  type DtoOptions,
  signatureRequestEventData,
  signerDto,
  signerEventData,
  toSignatureRequestDto,
  toSignerDto,
} from './dto.ts';
export { queueInvitation, sendQueuedMail, signingToken, signingUrl } from './invitations.ts';
export {
  cancelSignatureRequest,
  expireOverdueRequests,
  getSignatureRequest,
  type ReminderDto,
  remindSigners,
} from './lifecycle.ts';
export { listSignatureRequests } from './list.ts';
export {
  loadSigners,
  lockRequest,
  lockSigner,
  requireRequest,
  requireSigner,
  senderNameOf,
} from './queries.ts';
export { getSigner, type UpdateSignerArgs, updateSigner } from './signers.ts';
export {
  effectiveStatus,
  effectiveValues,
  isPastExpiry,
  REMIND_INTERVAL_MS,
  RESEND_INTERVAL_MS,
  signerFields,
  wasInvitedByEmail,
} from './status.ts';
