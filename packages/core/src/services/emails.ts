import { direction, formatDateTime, type Locale, t } from '@esign/i18n';
import {
  brandFooterHtml,
  brandFooterLines,
  brandHeaderHtml,
  buttonColor,
  type MailBrand,
} from './brands/mail-layout.ts';
import { escapeHtml } from './mail.ts';

export interface InvitationMail {
  subject: string;
  text: string;
  html: string;
}

/**
 * A paragraph of an email: text, or a list of links (`label: url` lines in the text part, a list
 * of real links in the HTML part), with an optional lead line before it.
 */
export type Paragraph = string | { lead?: string; links: { label: string; url: string }[] };

function paragraphText(p: Paragraph): string {
  if (typeof p === 'string') return p;
  const lines = p.links.map((l) => `${l.label}: ${l.url}`).join('\n');
  return p.lead ? `${p.lead}\n${lines}` : lines;
}

function paragraphHtml(p: Paragraph): string {
  if (typeof p === 'string') return `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`;
  const items = p.links.map((l) => `<li><a href="${escapeHtml(l.url)}">${escapeHtml(l.label)}</a></li>`);
  return `${p.lead ? `<p>${escapeHtml(p.lead)}</p>` : ''}<ul>${items.join('')}</ul>`;
}

interface LayoutOptions {
  paragraphs: Paragraph[];
  link: { url: string; label: string } | null;
  footer: string;
  /** the reader's language: `<html lang dir>` and the words around the link */
  locale: Locale;
  /** Issue 44: the brand's header, button colour and footer (brands/mail-layout.ts). */
  brand?: MailBrand | null;
}

function render(o: LayoutOptions): { text: string; html: string } {
  const { paragraphs, link, footer, locale, brand } = o;
  const text = [
    ...(brand ? [brand.name] : []),
    ...paragraphs.map(paragraphText),
    ...(link ? [`${link.label}: ${link.url}`] : []),
    '',
    footer,
    ...brandFooterLines(brand),
  ].join('\n\n');
  const html = `<!doctype html><html lang="${locale}" dir="${direction(locale)}"><body style="font-family:system-ui,sans-serif;line-height:1.5;color:#1b1f24;max-width:36rem">
${brandHeaderHtml(brand)}${paragraphs.map(paragraphHtml).join('\n')}
${link ? `<p><a href="${escapeHtml(link.url)}" style="display:inline-block;background:${buttonColor(brand)};color:#fff;padding:.6rem 1rem;border-radius:6px;text-decoration:none">${escapeHtml(link.label)}</a></p><p style="font-size:12px;color:#57606a">${escapeHtml(t(locale, 'mail.or_open', { url: link.url }))}</p>` : ''}
<p style="font-size:12px;color:#57606a">${escapeHtml(footer)}</p>${brandFooterHtml(brand)}</body></html>`;
  return { text, html };
}

/** An English email (the dashboard's own mail: sign-in links, team invitations). */
export function layout(
  paragraphs: Paragraph[],
  link: { url: string; label: string } | null,
  footer: string,
): { text: string; html: string } {
  return render({ paragraphs, link, footer, locale: 'en' });
}

/** An email in its reader's language (@esign/i18n `mail.*`): signers, CC recipients. */
export function localeLayout(o: LayoutOptions): { text: string; html: string } {
  return render(o);
}

const LEAD = {
  invitation: 'mail.invite.lead',
  resend: 'mail.invite.lead',
  next_signer: 'mail.next.lead',
  reminder: 'mail.reminder.lead',
} as const;

export function invitationEmail(opts: {
  kind: 'invitation' | 'next_signer' | 'reminder' | 'resend';
  title: string;
  signerName: string | null;
  senderName: string;
  signingUrl: string;
  message?: { subject?: string; body?: string } | null;
  expiresAt: Date | null;
  /** the signer's language; English when left out */
  locale?: Locale;
  /** A hand-over's invitation (issue 42): who passed the turn on, and why. */
  handedOver?: { from: string; reason: string } | null;
  /** Issue 44: the brand it goes out under. */
  brand?: MailBrand | null;
  /** Issue 47: an approver or a viewer is asked to approve or to read, not to sign. */
  part?: 'approver' | 'viewer' | null;
}): InvitationMail {
  const locale = opts.locale ?? 'en';
  const part = opts.part ?? null;
  const values = { title: opts.title, sender: opts.senderName };
  const greeting = opts.signerName
    ? t(locale, 'mail.hello_name', { name: opts.signerName })
    : t(locale, 'mail.hello');
  // The sender's own words go with every invitation (first, resent, or at a signer's turn), never
  // with a reminder, whose subject and body say it is one.
  const own = opts.kind === 'reminder' ? undefined : opts.message;
  const custom = own?.body;
  // The date in the reader's words, with the ISO time beside it for anyone comparing zones.
  const expiry = opts.expiresAt
    ? t(locale, 'mail.expires', { date: formatDateTime(locale, opts.expiresAt) })
    : null;
  const body = localeLayout({
    paragraphs: [
      greeting,
      part
        ? t(locale, `part.mail.${part}.${opts.kind === 'reminder' ? 'reminder_lead' : 'lead'}`, values)
        : t(locale, LEAD[opts.kind], values),
      ...(opts.handedOver ? [t(locale, 'mail.handed_over', opts.handedOver)] : []),
      ...(custom ? [custom] : []),
      ...(expiry ? [expiry] : []),
    ],
    link: { url: opts.signingUrl, label: t(locale, part ? `part.mail.${part}.button` : 'mail.button') },
    footer: t(locale, 'mail.private'),
    locale,
    brand: opts.brand ?? null,
  });
  const subject = own?.subject
    ? own.subject
    : part
      ? t(locale, `part.mail.${part}.${opts.kind === 'reminder' ? 'reminder_subject' : 'subject'}`, values)
      : t(locale, opts.kind === 'reminder' ? 'mail.reminder.subject' : 'mail.invite.subject', values);
  return { subject, ...body };
}

export function oneTimeCodeEmail(opts: {
  title: string;
  code: string;
  minutes: number;
  locale?: Locale;
}): InvitationMail {
  const locale = opts.locale ?? 'en';
  const body = localeLayout({
    paragraphs: [
      t(locale, 'mail.code.body', { title: opts.title, code: opts.code }),
      t(locale, 'mail.code.valid', { minutes: opts.minutes }),
    ],
    link: null,
    footer: t(locale, 'mail.code.footer'),
    locale,
  });
  return { subject: t(locale, 'mail.code.subject', { code: opts.code }), ...body };
}
