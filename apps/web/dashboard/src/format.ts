import { msg } from './messages/index.ts';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

export const formatDateTime = (iso: string | null | undefined) =>
  iso ? dateTime.format(new Date(iso)) : '—';
export const formatDate = (iso: string | null | undefined) => (iso ? dateOnly.format(new Date(iso)) : '—');

const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
export function formatAgo(iso: string | null | undefined): string {
  if (!iso) return 'never';
  const seconds = Math.round((new Date(iso).getTime() - Date.now()) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return rtf.format(seconds, 'second');
  if (abs < 3600) return rtf.format(Math.round(seconds / 60), 'minute');
  if (abs < 86400) return rtf.format(Math.round(seconds / 3600), 'hour');
  return rtf.format(Math.round(seconds / 86400), 'day');
}

export const REQUEST_STATUS_LABEL: Record<string, string> = {
  sent: msg('request.sent'),
  in_progress: msg('request.in_progress'),
  completed: msg('request.completed'),
  declined: msg('request.declined'),
  expired: msg('request.expired'),
  canceled: msg('request.canceled'),
};

export const SIGNER_STATUS_LABEL: Record<string, string> = {
  waiting: msg('signer.waiting'),
  ready: msg('signer.ready'),
  sent: msg('signer.sent'),
  viewed: msg('signer.viewed'),
  signed: msg('signer.signed'),
  declined: msg('signer.declined'),
};

const SMS_KINDS: Record<string, string> = {
  invitation: 'invitation',
  next_signer: 'invitation',
  reminder: 'reminder',
  resend: 'link sent again',
  otp: 'one-time code',
  'request.completed': 'completed documents',
};
const smsKind = (kind: unknown) => SMS_KINDS[String(kind)] ?? String(kind);
/** Issue 34: the addresses of a request.recipients entry, or "nobody". */
const listOf = (v: unknown) => (Array.isArray(v) && v.length ? v.join(', ') : 'nobody');

/** One line per audit event, in words. */
export function describeActivity(a: {
  type: string;
  signer: { name: string | null; email: string | null } | null;
  signature_request: { id: number; title: string | null } | null;
  data: Record<string, unknown>;
}): string {
  const who = a.signer ? a.signer.name || a.signer.email || 'A signer' : 'Someone';
  const what = a.signature_request?.title ? `“${a.signature_request.title}”` : 'a document';
  switch (a.type) {
    case 'request.sent':
      return `${what} was sent for signature`;
    case 'request.canceled':
      return `${what} was canceled`;
    case 'request.recipients':
      return `${what} is copied to ${listOf(a.data.cc)}; notices go to ${listOf(a.data.notify)}`;
    case 'request.reminded':
      return `Signers of ${what} were reminded`;
    case 'signer.viewed':
      return `${who} opened ${what}`;
    case 'signer.started':
      return `${who} started filling in ${what}`;
    case 'signer.signed':
      return `${who} signed ${what}`;
    case 'signer.declined':
      return `${who} declined to sign ${what}${a.data.reason ? `: “${String(a.data.reason)}”` : ''}`;
    case 'otp.sent':
      return `A one-time code was ${a.data.channel === 'sms' ? 'texted' : 'emailed'} to ${who}`;
    case 'sms.sent':
      return `An SMS (${smsKind(a.data.kind)}) ${a.data.status === 'kept' ? 'was kept in the SMS outbox' : 'went out'} for ${who}`;
    case 'sms.failed':
      return `An SMS (${smsKind(a.data.kind)}) to ${who} failed${a.data.retried ? ', it will be retried' : ' for good'}: ${String(a.data.error ?? '')}`;
    case 'sms.capped':
      return `An SMS (${smsKind(a.data.kind)}) to ${who} was not sent: the daily SMS limit (${String(a.data.limit)}) was reached`;
    case 'otp.verified':
      return `${who} entered their one-time code`;
    case 'otp.failed':
      return `${who} entered a wrong one-time code`;
    case 'signature_request.sealed':
      return `${what} was sealed: signed documents and audit trail are ready`;
    default:
      return `${a.type.replace(/[._]/g, ' ')} (${what})`;
  }
}
