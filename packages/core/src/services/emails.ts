import { escapeHtml } from './mail.ts';

export interface InvitationMail {
  subject: string;
  text: string;
  html: string;
}

export function layout(
  paragraphs: string[],
  link: { url: string; label: string } | null,
  footer: string,
): { text: string; html: string } {
  const text = [...paragraphs, ...(link ? [`${link.label}: ${link.url}`] : []), '', footer].join('\n\n');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1b1f24;max-width:36rem">
${paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`).join('\n')}
${link ? `<p><a href="${escapeHtml(link.url)}" style="display:inline-block;background:#1f6feb;color:#fff;padding:.6rem 1rem;border-radius:6px;text-decoration:none">${escapeHtml(link.label)}</a></p><p style="font-size:12px;color:#57606a">Or open: ${escapeHtml(link.url)}</p>` : ''}
<p style="font-size:12px;color:#57606a">${escapeHtml(footer)}</p></body></html>`;
  return { text, html };
}

const FOOTER = 'This link is private: anyone holding it can sign in your place. Do not forward it.';

export function invitationEmail(opts: {
  kind: 'invitation' | 'next_signer' | 'reminder' | 'resend';
  title: string;
  signerName: string | null;
  senderName: string;
  signingUrl: string;
  message?: { subject?: string; body?: string } | null;
  expiresAt: Date | null;
}): InvitationMail {
  const greeting = opts.signerName ? `Hello ${opts.signerName},` : 'Hello,';
  const lead =
    opts.kind === 'reminder'
      ? `A reminder: ${opts.senderName} is waiting for your signature on "${opts.title}".`
      : opts.kind === 'next_signer'
        ? `It is your turn to sign "${opts.title}", sent by ${opts.senderName}.`
        : `${opts.senderName} asks you to review and sign "${opts.title}".`;
  const custom =
    opts.kind === 'invitation' || opts.kind === 'resend' || opts.kind === 'next_signer'
      ? opts.message?.body
      : undefined;
  const expiry = opts.expiresAt ? `The link expires on ${opts.expiresAt.toUTCString()}.` : null;
  const body = layout(
    [greeting, lead, ...(custom ? [custom] : []), ...(expiry ? [expiry] : [])],
    { url: opts.signingUrl, label: 'Review and sign' },
    FOOTER,
  );
  const subject =
    (opts.kind === 'invitation' || opts.kind === 'resend') && opts.message?.subject
      ? opts.message.subject
      : opts.kind === 'reminder'
        ? `Reminder: please sign "${opts.title}"`
        : `Please sign "${opts.title}"`;
  return { subject, ...body };
}

export function oneTimeCodeEmail(opts: { title: string; code: string; minutes: number }): InvitationMail {
  const body = layout(
    [
      `Your code to open "${opts.title}" is ${opts.code}.`,
      `It is valid for ${opts.minutes} minutes. If you did not ask for it, ignore this email.`,
    ],
    null,
    'Never share this code.',
  );
  return { subject: `${opts.code} is your signing code`, ...body };
}
