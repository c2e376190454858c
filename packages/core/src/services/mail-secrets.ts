import type { Executor, Tx } from '@esign/db';
import { type OutboxPurge, purgeOutboxBodies, purgeSpentSecretBodies } from '@esign/db/queries/outbox';
import { CODE_KIND, SENT_MARKER, SIGNING_LINK_KINDS, SPENT_MARKER } from './secret-markers.ts';
import { CODE_MAX_ATTEMPTS } from './signing/code-policy.ts';
import { purgeSignerSms, purgeSmsSecrets } from './sms/secrets.ts';

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
const CODE_SUBJECT = 'Your signing code (removed)';

const purgeWith = (marker: string, now: Date): OutboxPurge => ({
  marker,
  codeSubject: { kind: CODE_KIND, subject: CODE_SUBJECT },
  now,
});

/** Purges a sent email right after SMTP accepted it (in the sending transaction). */
export async function purgeSentMail(db: Executor, mailId: number, now: Date): Promise<void> {
  await purgeOutboxBodies(db, 'mail_outbox', { rows: { id: mailId }, purge: purgeWith(SENT_MARKER, now) });
}

/** Purges the code emails, signing-link emails, or both, of these signers (their secret was spent). */
export async function purgeSignerMail(
  tx: Tx,
  signerIds: number[],
  spent: { what: 'codes' | 'links' | 'all'; now: Date },
): Promise<void> {
  if (signerIds.length === 0) return;
  const { what } = spent;
  const kinds: string[] =
    what === 'codes'
      ? [CODE_KIND]
      : what === 'links'
        ? [...SIGNING_LINK_KINDS]
        : [CODE_KIND, ...SIGNING_LINK_KINDS];
  await purgeOutboxBodies(tx, 'mail_outbox', {
    rows: { signerIds, kinds },
    purge: purgeWith(SPENT_MARKER, spent.now),
  });
  // The same secrets sent by SMS (sms/secrets.ts).
  await purgeSignerSms(tx, signerIds, spent);
}

/**
 * Housekeeping: purges every body the rules above no longer allow, in the mail and the SMS
 * outboxes. Returns how many rows changed.
 * Reads only rows that still hold a body (partial index mail_outbox_unredacted_idx).
 */
export async function purgeMailSecrets(tx: Tx, now: Date): Promise<number> {
  const sent = await purgeOutboxBodies(tx, 'mail_outbox', {
    rows: { sent: true },
    purge: purgeWith(SENT_MARKER, now),
  });
  const spent = await purgeSpentSecretBodies(tx, 'mail_outbox', {
    spent: { codeKind: CODE_KIND, linkKinds: SIGNING_LINK_KINDS, codeMaxAttempts: CODE_MAX_ATTEMPTS },
    purge: purgeWith(SPENT_MARKER, now),
  });
  return sent + spent + (await purgeSmsSecrets(tx, now));
}
