import type { SignatureRequestRow, SignerRow, Tx } from '@esign/db';
import { findUserContact } from '@esign/db/queries/sealing';
import { direction, formatDate, type Locale, type MessageKey, t } from '@esign/i18n';
import type { Config } from '../../config.ts';
import { requestBrand } from '../brands/branded-mail.ts';
import { queueRequestMail } from '../brands/request-mail.ts';
import { downloadName, signFileLink } from '../file-links.ts';
import { readerLocale } from '../locale.ts';
import { escapeHtml } from '../mail.ts';
import type { ProducedFile } from '../request-model.ts';
import { shortFileLink } from '../short-file-links.ts';
import { queueRecipientCompletionMails } from '../signature-requests/notices.ts';
import { queueCompletionSms } from '../sms/completion.ts';

/** Links in completion emails stay valid for 30 days; API responses sign fresh links each time. */
export const COMPLETION_LINK_TTL_SECONDS = 30 * 24 * 3600;

const PDF_TYPE = 'application/pdf';

/**
 * The completion emails: each signer (with send_email) and the sender get the sealed files' links;
 * so do the request's CC and notify addresses.
 */
export async function queueCompletionMails(
  tx: Tx,
  config: Config,
  {
    request,
    signers,
    files,
    title,
    now,
  }: { request: SignatureRequestRow; signers: SignerRow[]; files: ProducedFile[]; title: string; now: Date },
) {
  // Each reader downloads the files under names in their language (issue 42.6), led by the
  // request's brand (issue 44).
  const brand = (await requestBrand(tx, request))?.name ?? null;
  const linksIn = (locale: Locale) =>
    files.map((f) => ({
      kind: f.kind,
      name: f.name,
      url: signFileLink(
        config,
        { k: f.storage_key, t: PDF_TYPE, n: `${downloadName(locale, f, { title, brand })}.pdf` },
        { now, ttlSeconds: COMPLETION_LINK_TTL_SECONDS },
      ),
    }));
  const links = linksIn('en');
  const untilDate = new Date(now.getTime() + COMPLETION_LINK_TTL_SECONDS * 1000);
  // For the SMS and the CC/notify emails: labelled links (the notify notice is the sender's, in
  // English; a CC email and an SMS name the audit trail and combined file in their reader's words).
  const labelled = links.map((l) => ({
    ...l,
    label:
      l.kind === 'audit_trail' ? 'Audit trail' : l.kind === 'combined' ? 'Everything in one file' : l.name,
  }));
  const test = request.environment === 'test';
  // Each signer reads it in their language; the sender's copy is English like the dashboard.
  const mailIn = (locale: Locale, greeting: string, intro: string) =>
    completionMail({ locale, links: linksIn(locale), until: untilDate, test, title, greeting, intro });

  const sent = new Set<string>();
  const mail = { tx, config, request, mailIn, sent };
  // send_email false: the sender handles signer communication itself, so signers get no email.
  if (request.send_email) {
    await mailSigners(mail, { signers, title });
    await queueShortLinkSms(tx, config, { request, signers, files, title, now });
  }
  await mailSender(mail, title);
  // Issue 34: the request's CC and notify addresses (signature-requests/notices.ts).
  await queueRecipientCompletionMails(tx, config, {
    request,
    files: labelled,
    until: untilDate,
    already: sent,
  });
}

type MailIn = (locale: Locale, greeting: string, intro: string) => ReturnType<typeof completionMail>;
/** What the completion emails of one request share; `sent` holds the addresses already written to. */
interface CompletionMailing {
  tx: Tx;
  config: Config;
  request: SignatureRequestRow;
  mailIn: MailIn;
  sent: Set<string>;
}

/** Each signer with an email address, once per address, in their language. */
async function mailSigners(m: CompletionMailing, o: { signers: SignerRow[]; title: string }): Promise<void> {
  const { tx, config, request } = m;
  for (const s of o.signers) {
    if (!s.email || m.sent.has(s.email.toLowerCase())) continue;
    m.sent.add(s.email.toLowerCase());
    const { locale } = await readerLocale(tx, { signer: s, request });
    await queueRequestMail(
      tx,
      { config, request },
      {
        kind: 'request.completed',
        to: s.email,
        replyTo: request.reply_to,
        ...m.mailIn(locale, greetingOf(locale, s.name), t(locale, 'mail.done.lead', { title: o.title })),
        accountId: request.account_id,
        environment: request.environment,
        signerId: s.id,
      },
    );
  }
}

/** The sender (the dashboard user who sent it), in English like the dashboard, unless already written to. */
async function mailSender(m: CompletionMailing, title: string): Promise<void> {
  const { tx, config, request } = m;
  if (!request.created_by_user_id) return;
  const user = await findUserContact(tx, request.created_by_user_id);
  if (!user || m.sent.has(user.email.toLowerCase())) return;
  await queueRequestMail(
    tx,
    { config, request },
    {
      kind: 'request.completed',
      to: user.email,
      ...m.mailIn(
        'en',
        `Hello${user.name ? ` ${user.name}` : ''},`,
        `Signature request #${request.id} "${title}" is completed: every signer has signed. The sealed documents and the audit trail:`,
      ),
      accountId: request.account_id,
      environment: request.environment,
    },
  );
  m.sent.add(user.email.toLowerCase());
}

/**
 * Signers reached by SMS get the links by SMS too (sms/completion.ts), short (issue 42.2): a
 * signed file link alone takes ~290 characters, two SMS segments or more.
 */
async function queueShortLinkSms(
  tx: Tx,
  config: Config,
  o: { request: SignatureRequestRow; signers: SignerRow[]; files: ProducedFile[]; title: string; now: Date },
): Promise<void> {
  const ttl = { now: o.now, ttlSeconds: COMPLETION_LINK_TTL_SECONDS };
  const links = o.files.map((f) => ({
    kind: f.kind,
    url: shortFileLink(config, { requestId: o.request.id, sha256: f.sha256 }, ttl),
  }));
  const until = new Date(o.now.getTime() + COMPLETION_LINK_TTL_SECONDS * 1000);
  await queueCompletionSms(tx, {
    config,
    request: o.request,
    signers: o.signers,
    links,
    title: o.title,
    until,
    now: o.now,
  });
}

/**
 * One email with signed files in `locale` (the completion email, a signer's own copy): the
 * greeting, what happened, the links, until when they work, and the test-mode note.
 */
export function completionMail(o: {
  locale: Locale;
  links: { kind: string; name: string; url: string }[];
  until: Date;
  test: boolean;
  title: string;
  greeting: string;
  intro: string;
  /** the subject's keys, plain and in test mode (default: the completion email's) */
  subject?: readonly [MessageKey, MessageKey];
}) {
  const { locale, links, greeting, intro } = o;
  const label = (l: (typeof links)[number]) =>
    l.kind === 'audit_trail'
      ? t(locale, 'mail.done.audit_trail')
      : l.kind === 'combined'
        ? t(locale, 'mail.done.combined')
        : l.name;
  const until = t(locale, 'mail.done.until', { date: formatDate(locale, o.until) });
  const testNote = o.test ? t(locale, 'mail.done.test') : null;
  const [plain, inTest] = o.subject ?? (['mail.done.subject', 'mail.done.subject_test'] as const);
  return {
    subject: t(locale, o.test ? inTest : plain, { title: o.title }),
    text: `${greeting}\n\n${intro}\n\n${links.map((l) => `${label(l)}: ${l.url}`).join('\n')}\n\n${until}\n${testNote ? `\n${testNote}\n` : ''}`,
    html: `<!doctype html><html lang="${locale}" dir="${direction(locale)}"><body><p>${escapeHtml(greeting)}</p><p>${escapeHtml(intro)}</p><ul>${links
      .map((l) => `<li><a href="${escapeHtml(l.url)}">${escapeHtml(label(l))}</a></li>`)
      .join(
        '',
      )}</ul><p>${escapeHtml(until)}</p>${testNote ? `<p>${escapeHtml(testNote)}</p>` : ''}</body></html>`,
  };
}

/** The greeting of a signer's email: by name when known. */
export const greetingOf = (locale: Locale, name: string | null) =>
  name ? t(locale, 'mail.hello_name', { name }) : t(locale, 'mail.hello');
