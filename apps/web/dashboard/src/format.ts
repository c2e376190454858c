import { LANGUAGE_NAMES, type Locale } from '@esign/i18n/core';
import { msg, t } from './messages/index.ts';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

export const formatDateTime = (iso: string | null | undefined) =>
  iso ? dateTime.format(new Date(iso)) : '—';
export const formatDate = (iso: string | null | undefined) => (iso ? dateOnly.format(new Date(iso)) : '—');

const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
export function formatAgo(iso: string | null | undefined): string {
  if (!iso) return msg('activity.never');
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

/** What an SMS was, in words (an unknown kind as it is). */
const SMS_KINDS: Record<string, string> = {
  invitation: msg('activity.sms_kind.invitation'),
  next_signer: msg('activity.sms_kind.invitation'),
  reminder: msg('activity.sms_kind.reminder'),
  resend: msg('activity.sms_kind.resend'),
  otp: msg('activity.sms_kind.otp'),
  'request.completed': msg('activity.sms_kind.completed'),
};
const smsKind = (kind: unknown) => SMS_KINDS[String(kind)] ?? String(kind);
/** Issue 34: the addresses of a request.recipients entry, or "nobody". */
const listOf = (v: unknown) => (Array.isArray(v) && v.length ? v.join(', ') : msg('activity.nobody'));

/** A person recorded in an event's data (`{name, email, phone}`), by the first of those they have. */
function personIn(value: unknown, fallback: string): string {
  const p = (value ?? {}) as { name?: unknown; email?: unknown; phone?: unknown };
  return [p.name, p.email, p.phone].find((x): x is string => typeof x === 'string' && x !== '') ?? fallback;
}

/** A language in its own name (`de` → Deutsch); a code this build does not know as it is. */
const languageName = (code: unknown) => LANGUAGE_NAMES[String(code) as Locale] ?? String(code);

/** The codes and messages sent to a signer, in words; null for any other event. */
function describeMessage(a: { type: string; data: Record<string, unknown> }, who: string): string | null {
  const kind = smsKind(a.data.kind);
  switch (a.type) {
    case 'otp.sent':
      return t('activity.otp_sent', { channel: String(a.data.channel), who });
    case 'sms.sent':
      return t('activity.sms_sent', { status: String(a.data.status), kind, who });
    case 'sms.failed':
      return t('activity.sms_failed', {
        retried: a.data.retried ? 'yes' : 'no',
        kind,
        who,
        error: String(a.data.error ?? ''),
      });
    case 'sms.capped':
      return t('activity.sms_capped', { kind, who, limit: String(a.data.limit) });
    case 'sms.opted_out':
      return a.data.keyword
        ? t('activity.sms_stop_reply', { who })
        : t('activity.sms_opted_out', { kind, who });
    case 'otp.verified':
      return t('activity.otp_verified', { who });
    case 'otp.failed':
      return t('activity.otp_failed', { who });
    case 'otp.locked':
      return t('activity.otp_locked', { who });
    case 'otp.expired':
      return t('activity.otp_expired', { who });
    case 'link.email_confirmed':
      return t('activity.email_confirmed', { who });
    default:
      return null;
  }
}

/** One line per audit event, in words. */
export function describeActivity(a: {
  type: string;
  signer: { name: string | null; email: string | null } | null;
  signature_request: { id: number; title: string | null } | null;
  data: Record<string, unknown>;
}): string {
  const who = a.signer
    ? a.signer.name || a.signer.email || msg('activity.a_signer')
    : msg('activity.someone');
  const what = a.signature_request?.title
    ? t('activity.titled', { title: a.signature_request.title })
    : msg('activity.a_document');
  const message = describeMessage(a, who);
  if (message !== null) return message;
  switch (a.type) {
    case 'request.sent':
      return t('activity.request_sent', { what });
    case 'request.canceled':
      return t('activity.request_canceled', { what });
    case 'request.recipients':
      return t('activity.request_recipients', { what, cc: listOf(a.data.cc), notify: listOf(a.data.notify) });
    case 'request.reminded':
      return t('activity.request_reminded', { what });
    case 'signer.viewed':
      return t('activity.signer_viewed', { who, what });
    case 'signer.started':
      return t('activity.signer_started', { who, what });
    case 'signer.signed':
      return t('activity.signer_signed', { who, what });
    case 'signer.declined':
      return a.data.reason
        ? t('activity.signer_declined_reason', { who, what, reason: String(a.data.reason) })
        : t('activity.signer_declined', { who, what });
    case 'signature_request.sealed':
      return t('activity.sealed', { what });
    case 'signature_request.created':
      return t('activity.request_created', { what });
    case 'signature_request.completed':
      return t('activity.request_completed', { what });
    case 'signer.reminded':
      return t('activity.signer_reminded', { who, what });
    case 'signer.delegated': {
      const parties = {
        from: personIn(a.data.from, who),
        to: personIn(a.data.to, msg('activity.someone')),
        what,
      };
      return a.data.reason
        ? t('activity.signer_delegated_reason', { ...parties, reason: String(a.data.reason) })
        : t('activity.signer_delegated', parties);
    }
    // Issue 47: approvers, viewers and in-person signing.
    case 'signer.approved':
      return t('activity.signer_approved', { who, what });
    case 'signer.rejected':
      return t('activity.signer_rejected', { who, what, reason: String(a.data.reason ?? '') });
    case 'signer.viewed_confirmed':
      return t('activity.signer_viewed_confirmed', { who, what });
    case 'signer.hosting_started':
      return t('activity.signer_hosting_started', {
        who,
        what,
        host: personIn(a.data.hosted_by, msg('activity.someone')),
      });
    case 'signer.copy_sealed':
      return t('activity.signer_copy_sealed', { who, what });
    case 'signer.locale':
      return t('activity.signer_locale', { who, what, language: languageName(a.data.to) });
    default:
      return t('activity.other', { type: a.type.replace(/[._]/g, ' '), what });
  }
}
