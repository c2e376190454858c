import type { SignatureRequestRow, SignerRow, Tx } from '@esign/db';
import { findUserContact } from '@esign/db/queries/sealing';
import type { Config } from '../../config.ts';
import { signFileLink } from '../file-links.ts';
import { escapeHtml, queueMail } from '../mail.ts';
import type { ProducedFile } from '../request-model.ts';
import { queueCompletionSms } from '../sms/completion.ts';
import { queueRecipientCompletionMails } from '../signature-requests/notices.ts';

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
  request: SignatureRequestRow,
  signers: SignerRow[],
  files: ProducedFile[],
  title: string,
  now: Date,
) {
  const links = files.map((f) => ({
    kind: f.kind,
    label:
      f.kind === 'audit_trail' ? 'Audit trail' : f.kind === 'combined' ? 'Everything in one file' : f.name,
    url: signFileLink(
      config,
      { k: f.storage_key, t: PDF_TYPE, n: `${f.name}.pdf` },
      { now, ttlSeconds: COMPLETION_LINK_TTL_SECONDS },
    ),
  }));
  const until = new Date(now.getTime() + COMPLETION_LINK_TTL_SECONDS * 1000).toISOString().slice(0, 10);
  const test = request.environment === 'test';
  const subject = `${test ? '[Test] ' : ''}Completed: ${title}`;
  const linkText = links.map((l) => `${l.label}: ${l.url}`).join('\n');
  const linkHtml = links
    .map((l) => `<li><a href="${escapeHtml(l.url)}">${escapeHtml(l.label)}</a></li>`)
    .join('');
  const testNote = test ? '\nThis was sent in test mode: the documents are not legally binding.\n' : '';
  const body = (greeting: string, intro: string) => ({
    text: `${greeting}\n\n${intro}\n\n${linkText}\n\nThese links work until ${until}.\n${testNote}`,
    html: `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(intro)}</p><ul>${linkHtml}</ul><p>These links work until ${until}.</p>${
      test ? '<p>This was sent in test mode: the documents are not legally binding.</p>' : ''
    }`,
  });

  const sent = new Set<string>();
  // send_email false: the sender handles signer communication itself, so signers get no email.
  if (request.send_email) {
    for (const s of signers) {
      if (!s.email || sent.has(s.email.toLowerCase())) continue;
      sent.add(s.email.toLowerCase());
      await queueMail(tx, {
        kind: 'request.completed',
        to: s.email,
        replyTo: request.reply_to,
        subject,
        ...body(
          `Hello${s.name ? ` ${s.name}` : ''},`,
          `Everyone has signed "${title}". Your signed copy and the audit trail are ready to download:`,
        ),
        accountId: request.account_id,
        environment: request.environment,
        signerId: s.id,
      });
    }
    // Signers reached by SMS get the link by SMS too (sms/completion.ts).
    await queueCompletionSms(tx, { config, request, signers, links, title, until, now });
  }
  if (request.created_by_user_id) {
    const user = await findUserContact(tx, request.created_by_user_id);
    if (user && !sent.has(user.email.toLowerCase())) {
      await queueMail(tx, {
        kind: 'request.completed',
        to: user.email,
        subject,
        ...body(
          `Hello${user.name ? ` ${user.name}` : ''},`,
          `Signature request #${request.id} "${title}" is completed: every signer has signed. The sealed documents and the audit trail:`,
        ),
        accountId: request.account_id,
        environment: request.environment,
      });
      sent.add(user.email.toLowerCase());
    }
  }
  // Issue 34: the request's CC and notify addresses (signature-requests/notices.ts).
  await queueRecipientCompletionMails(tx, config, { request, files: links, until, already: sent });
}
