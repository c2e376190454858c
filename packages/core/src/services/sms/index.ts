export { codeBySms, maskPhone, queueCodeSms } from './codes.ts';
export { queueCompletionSms } from './completion.ts';
export {
  addOutgoing,
  noOutgoing,
  type Outgoing,
  queueInvitationSms,
  sendOutgoingNow,
  signerChannels,
} from './delivery.ts';
export { type InboundSmsOutcome, receiveInboundSms, twilioSignature } from './inbound.ts';
export { listSms, queueSms, SMS_SEND_JOB, sendSmsJob, sendSmsNow } from './outbox.ts';
export { normalisePhone } from './phone.ts';
export { purgeSignerSms, purgeSmsSecrets } from './secrets.ts';
export { gsm7Name } from './segments.ts';
export { type SmsTextKind, smsText } from './texts.ts';
