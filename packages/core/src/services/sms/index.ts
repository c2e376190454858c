export { codeBySms, maskPhone, queueCodeSms } from './codes.ts';

export {
  addOutgoing,
  noOutgoing,
  type Outgoing,
  queueInvitationSms,
  sendOutgoingNow,
  signerChannels,
} from './delivery.ts';

export { SMS_SEND_JOB, sendSmsJob } from './outbox.ts';
export { normalisePhone } from './phone.ts';

export { gsm7Name } from './segments.ts';
