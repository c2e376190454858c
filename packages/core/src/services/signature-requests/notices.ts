import type { SignatureRequestRow, Tx } from '@esign/db';
import { listRequestRecipients } from '@esign/db/queries/recipients';
import { findRequestViewById } from '@esign/db/queries/signature-requests';
import { formatDate, type Locale, t } from '@esign/i18n';
import type { Config } from '../../config.ts';
import { queueRequestMail } from '../brands/request-mail.ts';
import { layout, localeLayout } from '../emails.ts';
import { readerLocale } from '../locale.ts';
import type { RequestSnapshot } from '../request-model.ts';

// Issue 34 item 4, completion notices, and the completion email of item 1's CC recipients. A
// request's `notify` addresses get a short email when it completes, is declined, expires or is
// canceled, with the links its sender sees: the request in the dashboard and, once completed, the
// signed documents and audit trail. Its `cc` addresses get the signed documents and audit trail
// when it completes, and nothing else. Each email is queued in the transaction of the change:
// cancel, decline, the expiry sweep, and the final seal (the signed files exist from then on, so
// completion emails go out with it, as the signers' and the sender's do).

export type Outcome = 'completed' | 'declined' | 'expired' | 'canceled';

const HEADLINES: Record<Outcome, string> = {
  completed: 'Completed',
  declined: 'Declined',
  expired: 'Expired',
  canceled: 'Canceled',
};

const requestPageUrl = (config: Config, id: number) => `${config.PUBLIC_URL}/requests/${id}`;

interface FileLinkLine {
  label: string;
  url: string;
  /** `audit_trail` and `combined` are named in the reader's words */
  kind?: string;
}

function noticeEmail(o: {
  request: SignatureRequestRow;
  outcome: Outcome;
  detail: string | null;
  url: string;
  files: FileLinkLine[];
}) {
  const title = (o.request.snapshot as RequestSnapshot).template.name;
  const test = o.request.environment === 'test' ? '[Test] ' : '';
  const what = {
    completed: 'is completed: every signer has signed',
    declined: 'was declined',
    expired: 'expired before every signer had signed',
    canceled: 'was canceled',
  }[o.outcome];
  const body = layout(
    [
      'Hello,',
      `Signature request #${o.request.id} "${title}" ${what}${o.detail ? ` (${o.detail})` : ''}.`,
      ...(o.files.length ? [{ lead: 'The signed documents and the audit trail:', links: o.files }] : []),
    ],
    { url: o.url, label: 'Open the request' },
    'You get this email because the sender asked to be notified at this address when this request ends.',
  );
  return { subject: `${test}${HEADLINES[o.outcome]}: ${title}`, ...body };
}

/**
 * The notices of one request that ended (declined, expired, canceled), queued in the transaction
 * of that change. `detail` is a short explanation (who declined and why).
 */
export async function queueClosingNotices(
  tx: Tx,
  config: Config,
  o: { request: SignatureRequestRow; outcome: Exclude<Outcome, 'completed'>; detail?: string | null },
): Promise<number[]> {
  const notify = await listRequestRecipients(tx, [o.request.id], 'notify');
  const ids: number[] = [];
  for (const r of notify) {
    const mail = noticeEmail({
      ...o,
      detail: o.detail ?? null,
      url: requestPageUrl(config, o.request.id),
      files: [],
    });
    ids.push(await queueNotice(tx, config, o.request, { to: r.email, kind: 'request.notice', mail }));
  }
  return ids;
}

/** The notices of requests the expiry sweep just expired (one statement when none has any). */
export async function queueExpiryNotices(tx: Tx, config: Config, requestIds: number[]): Promise<void> {
  const notify = await listRequestRecipients(tx, requestIds, 'notify');
  for (const id of new Set(notify.map((r) => r.signature_request_id))) {
    const request = await findRequestViewById(tx, id);
    if (request) await queueClosingNotices(tx, config, { request, outcome: 'expired' });
  }
}

async function queueNotice(
  tx: Tx,
  config: Config,
  request: SignatureRequestRow,
  o: { to: string; kind: string; mail: { subject: string; text: string; html: string } },
): Promise<number> {
  // Issue 44: under the request's brand.
  return queueRequestMail(
    tx,
    { config, request },
    {
      kind: o.kind,
      to: o.to,
      replyTo: request.reply_to,
      ...o.mail,
      accountId: request.account_id,
      environment: request.environment,
    },
  );
}

/** A CC recipient's completion email, in the request's language (as their first email, cc.ts). */
function ccCompletedEmail(
  request: SignatureRequestRow,
  o: { files: FileLinkLine[]; until: Date; locale: Locale },
) {
  const { locale } = o;
  const title = (request.snapshot as RequestSnapshot).template.name;
  const test = request.environment === 'test';
  const body = localeLayout({
    paragraphs: [
      t(locale, 'mail.hello'),
      t(locale, 'mail.cc.done_lead', { title }),
      {
        links: o.files.map((f) => ({
          url: f.url,
          label:
            f.kind === 'audit_trail'
              ? t(locale, 'mail.done.audit_trail')
              : f.kind === 'combined'
                ? t(locale, 'mail.done.combined')
                : f.label,
        })),
      },
      t(locale, 'mail.done.until', { date: formatDate(locale, o.until) }),
      ...(test ? [t(locale, 'mail.done.test')] : []),
    ],
    link: null,
    footer: t(locale, 'mail.cc.done_footer'),
    locale,
  });
  return { subject: t(locale, test ? 'mail.done.subject_test' : 'mail.done.subject', { title }), ...body };
}

/**
 * At the final seal (sealing/completion-mails.ts, same transaction): the request's notify
 * addresses get the completion notice and its CC addresses the signed files, each address once,
 * none that already got the completion email (`already`: the signers and the sender, lower case).
 * An address both copied and notified gets the notice (it carries the same files).
 */
export async function queueRecipientCompletionMails(
  tx: Tx,
  config: Config,
  o: { request: SignatureRequestRow; files: FileLinkLine[]; until: Date; already: Set<string> },
): Promise<void> {
  const recipients = await listRequestRecipients(tx, [o.request.id]);
  const sent = new Set(o.already);
  const url = requestPageUrl(config, o.request.id);
  for (const r of recipients.filter((x) => x.kind === 'notify')) {
    if (sent.has(r.email.toLowerCase())) continue;
    sent.add(r.email.toLowerCase());
    const mail = noticeEmail({ request: o.request, outcome: 'completed', detail: null, url, files: o.files });
    await queueNotice(tx, config, o.request, { to: r.email, kind: 'request.notice', mail });
  }
  const cc = recipients.filter((x) => x.kind === 'cc' && !sent.has(x.email.toLowerCase()));
  const { locale } = cc.length ? await readerLocale(tx, { request: o.request }) : { locale: 'en' as const };
  for (const r of cc) {
    if (sent.has(r.email.toLowerCase())) continue;
    sent.add(r.email.toLowerCase());
    const mail = ccCompletedEmail(o.request, { files: o.files, until: o.until, locale });
    await queueNotice(tx, config, o.request, { to: r.email, kind: 'cc.completed', mail });
  }
}
