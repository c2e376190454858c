import { formatDate, type Locale, type MessageKey, t } from '@esign/i18n';
import { isGsm7, smsSegments } from './segments.ts';

// Every text message a signer receives, built in one place (issue 32) from the translation
// catalogues (@esign/i18n `sms.*`), in the reader's language. Short, because a message is paid per
// segment (segments.ts): the texts are written in the GSM 7-bit alphabet wherever the language
// allows (straight quotes, no letter outside it: issue 42.2), so that only a name or a title can make
// a text UCS-2; a code fits one segment, an invitation or reminder two.

export type SmsTextKind = 'invitation' | 'next_signer' | 'reminder' | 'resend' | 'otp' | 'request.completed';

interface LinkParams {
  senderName: string;
  title: string;
  url: string;
  expiresAt: Date | null;
  /** Issue 47: an approver is asked to approve, a viewer to read, not to sign. */
  part?: 'approver' | 'viewer' | null;
}

export interface SmsTextParams {
  invitation: LinkParams;
  next_signer: LinkParams;
  reminder: LinkParams;
  resend: LinkParams;
  otp: { code: string; minutes: number; senderName: string; title: string };
  'request.completed': { title: string; urls: string[]; until: Date; test: boolean };
}

const LEAD: Record<'invitation' | 'next_signer' | 'reminder' | 'resend', MessageKey> = {
  invitation: 'sms.invite',
  resend: 'sms.invite',
  next_signer: 'sms.next',
  reminder: 'sms.reminder',
};

/** The fewest characters a shortened title or sender name keeps in a code SMS. */
const MIN_NAME = 16;

/**
 * The text of one SMS of `kind` in `locale`; links stand alone on their own line so phones make
 * them tappable, dates are the reader's short form.
 */
export function smsText<K extends SmsTextKind>(kind: K, params: SmsTextParams[K], locale: Locale): string {
  if (kind === 'otp') return codeText(params as SmsTextParams['otp'], locale);
  if (kind === 'request.completed') {
    const p = params as SmsTextParams['request.completed'];
    const lead = t(locale, p.test ? 'sms.done_test' : 'sms.done', {
      title: p.title,
      date: smsDate(locale, p.until),
    });
    return `${lead}\n${p.urls.join('\n')}`;
  }
  const p = params as LinkParams;
  const key: MessageKey = p.part
    ? `part.sms.${p.part}.${kind === 'reminder' ? 'reminder' : 'invite'}`
    : LEAD[kind as keyof typeof LEAD];
  const lead = t(locale, key, { sender: p.senderName, title: p.title });
  const expiry = p.expiresAt ? ` ${t(locale, 'sms.expires', { date: smsDate(locale, p.expiresAt) })}` : '';
  return `${lead}${expiry} ${t(locale, 'sms.private')}\n${p.url}`;
}

/**
 * The code SMS names the sender and the document (issue 42.7), and stays one segment: a long title,
 * then a long sender name, is shortened (to no fewer than {@link MIN_NAME} characters, ending in
 * "...") until it fits.
 */
function codeText(p: SmsTextParams['otp'], locale: Locale): string {
  const text = (title: string, sender: string) =>
    t(locale, 'sms.code', { code: p.code, minutes: p.minutes, title, sender });
  let title = p.title;
  let sender = p.senderName;
  let out = text(title, sender);
  while (smsSegments(out).segments > 1) {
    if (title.length > MIN_NAME) title = shorten(title);
    else if (sender.length > MIN_NAME) sender = shorten(sender);
    else break;
    out = text(title, sender);
  }
  return out;
}

/** `s` one character shorter, ending in "..." (three GSM-7 dots, not the UCS-2 ellipsis). */
function shorten(s: string): string {
  const chars = Array.from(s.endsWith('...') ? s.slice(0, -3) : s);
  return `${chars
    .slice(0, Array.from(s).length - 4)
    .join('')
    .trimEnd()}...`;
}

/**
 * A date in an SMS: the reader's medium form (`Mar 4, 2030`, `04.03.2030`), or its numeric form
 * where the medium one would make a GSM-7 text UCS-2 (French `août`, Polish `paź`).
 */
function smsDate(locale: Locale, date: Date): string {
  const medium = formatDate(locale, date, 'medium');
  if (isGsm7(medium)) return medium;
  const numeric = new Intl.DateTimeFormat(locale, {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(date);
  return isGsm7(numeric) ? numeric : medium;
}
