// Every text message a signer receives, built in one place (issue 32) so that it can be read from
// the translation catalogues as a whole. English; short, because a message is paid per segment
// (160 GSM characters, 70 with any other character).

export type SmsTextKind = 'invitation' | 'next_signer' | 'reminder' | 'resend' | 'otp' | 'request.completed';

export interface SmsTextParams {
  invitation: { senderName: string; title: string; url: string; expiresAt: Date | null };
  next_signer: { senderName: string; title: string; url: string; expiresAt: Date | null };
  reminder: { senderName: string; title: string; url: string; expiresAt: Date | null };
  resend: { senderName: string; title: string; url: string; expiresAt: Date | null };
  otp: { code: string; minutes: number };
  'request.completed': { title: string; urls: string[]; until: string; test: boolean };
}

const expiry = (d: Date | null) => (d ? ` Link expires ${d.toISOString().slice(0, 10)}.` : '');

/** The text of one SMS of `kind`; links stand alone on their own line so phones make them tappable. */
export function smsText<K extends SmsTextKind>(kind: K, params: SmsTextParams[K]): string {
  switch (kind) {
    case 'invitation':
    case 'resend':
    case 'next_signer':
    case 'reminder': {
      const p = params as SmsTextParams['invitation'];
      const lead =
        kind === 'reminder'
          ? `Reminder: ${p.senderName} is waiting for your signature on "${p.title}".`
          : kind === 'next_signer'
            ? `It is your turn to sign "${p.title}", sent by ${p.senderName}.`
            : `${p.senderName} asks you to sign "${p.title}".`;
      return `${lead}${expiry(p.expiresAt)} Private link, do not forward:\n${p.url}`;
    }
    case 'otp': {
      const p = params as SmsTextParams['otp'];
      return `${p.code} is your signing code. It is valid for ${p.minutes} minutes. Never share it.`;
    }
    case 'request.completed': {
      const p = params as SmsTextParams['request.completed'];
      const test = p.test ? ' (test mode, not legally binding)' : '';
      return `Everyone has signed "${p.title}"${test}. Your signed copy, until ${p.until}:\n${p.urls.join('\n')}`;
    }
  }
  throw new Error(`unknown SMS kind ${String(kind)}`);
}
