import { type Database, type Executor, json } from '@esign/db';
import { type ExpressionBuilder, sql } from 'kysely';
import { CODE_MAX_ATTEMPTS } from './signing/code-policy.ts';

/**
 * Signing links and email codes at rest. An outbox row keeps its body only while it is needed:
 *
 * - With SMTP_URL, a body is purged as soon as the mail went out (status `sent`).
 * - Without SMTP_URL the outbox is the delivery channel (the operator reads it with
 *   `esign mail list`), so a body stays while its secret still works:
 *   - a code email until its code is used, replaced, locked (5 wrong tries) or expired;
 *   - a signing-link email (invitation, next_signer, reminder, resend) until its signer signed or
 *     declined, or the request is no longer open (completed, declined, canceled, expired).
 *   Other emails (completion links to the sealed files, feedback) are kept as they are.
 *
 * Purging replaces the text and HTML by a marker, empties `links`, and for a code email replaces
 * the subject (it carries the code); recipient, kind, status and times stay. A queued email whose
 * body was purged is never sent. The signing services purge in the transaction that spends the
 * secret; the worker's housekeeping (`purgeMailSecrets`) catches the rest (expiry, cancel, SMTP
 * sends, rows written before this rule).
 */
export const SIGNING_LINK_KINDS = ['invitation', 'next_signer', 'reminder', 'resend'] as const;
export const CODE_KIND = 'otp';

export const SENT_MARKER =
  '[Removed after it was sent: the outbox keeps who, what and when, not the link or code.]';
export const SPENT_MARKER = '[Removed: the signing link or code in this email no longer works.]';
const CODE_SUBJECT = 'Your signing code (removed)';

function purgedBody(marker: string, now: Date) {
  return (eb: ExpressionBuilder<Database, 'mail_outbox'>) => ({
    subject: eb.case().when('kind', '=', CODE_KIND).then(CODE_SUBJECT).else(eb.ref('subject')).end(),
    text_body: marker,
    html_body: `<p>${marker}</p>`,
    links: json([]),
    redacted_at: now,
  });
}

/** Purges a sent email right after SMTP accepted it (in the sending transaction). */
export async function purgeSentMail(db: Executor, mailId: number, now: Date): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set(purgedBody(SENT_MARKER, now))
    .where('id', '=', mailId)
    .where('redacted_at', 'is', null)
    .execute();
}

/** Purges the code emails, signing-link emails, or both, of these signers (their secret was spent). */
export async function purgeSignerMail(
  db: Executor,
  signerIds: number[],
  what: 'codes' | 'links' | 'all',
  now: Date,
): Promise<void> {
  if (signerIds.length === 0) return;
  const kinds: string[] =
    what === 'codes'
      ? [CODE_KIND]
      : what === 'links'
        ? [...SIGNING_LINK_KINDS]
        : [CODE_KIND, ...SIGNING_LINK_KINDS];
  await db
    .updateTable('mail_outbox')
    .set(purgedBody(SPENT_MARKER, now))
    .where('signer_id', 'in', signerIds)
    .where('kind', 'in', kinds)
    .where('redacted_at', 'is', null)
    .execute();
}

/**
 * Housekeeping: purges every body the rules above no longer allow. Returns how many rows changed.
 * Reads only rows that still hold a body (partial index mail_outbox_unredacted_idx).
 */
export async function purgeMailSecrets(db: Executor, now: Date): Promise<number> {
  const sent = await db
    .updateTable('mail_outbox')
    .set(purgedBody(SENT_MARKER, now))
    .where('redacted_at', 'is', null)
    .where('status', '=', 'sent')
    .executeTakeFirst();
  const spent = await db
    .updateTable('mail_outbox as m')
    .set(purgedBody(SPENT_MARKER, now) as never)
    .where('m.redacted_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb.and([
          eb('m.kind', '=', CODE_KIND),
          eb.not(
            eb.exists(
              eb
                .selectFrom('signers as s')
                .select(sql`1`.as('one'))
                .whereRef('s.id', '=', 'm.signer_id')
                .where('s.otp_hash', 'is not', null)
                .where('s.otp_expires_at', '>', now)
                .where('s.otp_attempts', '<', CODE_MAX_ATTEMPTS),
            ),
          ),
        ]),
        eb.and([
          eb('m.kind', 'in', [...SIGNING_LINK_KINDS]),
          eb.not(
            eb.exists(
              eb
                .selectFrom('signers as s')
                .innerJoin('signature_requests as r', 'r.id', 's.signature_request_id')
                .select(sql`1`.as('one'))
                .whereRef('s.id', '=', 'm.signer_id')
                .where('s.status', 'not in', ['signed', 'declined'])
                .where('r.status', 'in', ['sent', 'in_progress'])
                .where((w) => w.or([w('r.expires_at', 'is', null), w('r.expires_at', '>', now)])),
            ),
          ),
        ]),
      ]),
    )
    .executeTakeFirst();
  return Number(sent.numUpdatedRows) + Number(spent.numUpdatedRows);
}
