import { formatDate, type Locale, type MessageKey, t } from '@esign/i18n';

// Every text message a signer receives, built in one place (issue 32) from the translation
// catalogues (@esign/i18n `sms.*`), in the reader's language. Short, because a message is paid per
// segment (160 GSM characters, 70 with any other character).

export type SmsTextKind = 'invitation' | 'next_signer' | 'reminder' | 'resend' | 'otp' | 'request.completed';

interface LinkParams {
  senderName: string;
  title: string;
  url: string;
  expiresAt: Date | null;
}

export interface SmsTextParams {
  invitation: LinkParams;
  next_signer: LinkParams;
  reminder: LinkParams;
  resend: LinkParams;
  otp: { code: string; minutes: number };
  'request.completed': { title: string; urls: string[]; until: Date; test: boolean };
}

const LEAD: Record<'invitation' | 'next_signer' | 'reminder' | 'resend', MessageKey> = {
  invitation: 'sms.invite',
  resend: 'sms.invite',
  next_signer: 'sms.next',
  reminder: 'sms.reminder',
};

/**
 * The text of one SMS of `kind` in `locale`; links stand alone on their own line so phones make
 * them tappable, dates are the reader's short form.
 */
export function smsText<K extends SmsTextKind>(kind: K, params: SmsTextParams[K], locale: Locale): string {
  if (kind === 'otp') {
    const p = params as SmsTextParams['otp'];
    return t(locale, 'sms.code', { code: p.code, minutes: p.minutes });
  }
  if (kind === 'request.completed') {
    const p = params as SmsTextParams['request.completed'];
    const lead = t(locale, p.test ? 'sms.done_test' : 'sms.done', {
      title: p.title,
      date: formatDate(locale, p.until, 'medium'),
    });
    return `${lead}\n${p.urls.join('\n')}`;
  }
  const p = params as LinkParams;
  const lead = t(locale, LEAD[kind as keyof typeof LEAD], { sender: p.senderName, title: p.title });
  const expiry = p.expiresAt
    ? ` ${t(locale, 'sms.expires', { date: formatDate(locale, p.expiresAt, 'medium') })}`
    : '';
  return `${lead}${expiry} ${t(locale, 'sms.private')}\n${p.url}`;
}
