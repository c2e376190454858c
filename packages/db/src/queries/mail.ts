import { type ExpressionBuilder, type Insertable, sql } from 'kysely';
import { type Executor, json, type Tx } from '../connection.ts';
import type { Database, MailRow } from '../schema.ts';

// The mail outbox: queued emails, their delivery (packages/core/src/services/mail.ts) and the
// purge of signing links and codes at rest (services/mail-secrets.ts says when).

export type NewMailRow = Insertable<Database['mail_outbox']>;

export async function insertMail(tx: Executor, values: NewMailRow): Promise<number> {
  const row = await tx.insertInto('mail_outbox').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/**
 * The email still to send (`queued` or `failed`), locked for sending; undefined when it is not
 * waiting or another process holds it (`SKIP LOCKED`).
 */
export async function lockMailToSend(tx: Tx, id: number): Promise<MailRow | undefined> {
  return tx
    .selectFrom('mail_outbox')
    .selectAll()
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'failed'])
    .forUpdate()
    .skipLocked()
    .executeTakeFirst();
}

export async function findMailStatus(db: Executor, id: number): Promise<MailRow['status'] | undefined> {
  const row = await db.selectFrom('mail_outbox').select('status').where('id', '=', id).executeTakeFirst();
  return row?.status;
}

/** Marks an email `failed` without sending it, with the reason. */
export async function markMailNotSent(tx: Tx, id: number, reason: string): Promise<void> {
  await tx
    .updateTable('mail_outbox')
    .set({ status: 'failed', last_error: reason })
    .where('id', '=', id)
    .execute();
}

/** Counts a failed delivery attempt (the status stays; the job retries). */
export async function recordMailAttemptFailed(tx: Tx, id: number, error: string): Promise<void> {
  await tx
    .updateTable('mail_outbox')
    .set((eb) => ({ attempts: eb('attempts', '+', 1), last_error: error }))
    .where('id', '=', id)
    .execute();
}

/** Counts the delivered attempt: `sent` (by SMTP) or `kept` (the outbox is the channel). */
export async function markMailDelivered(
  tx: Tx,
  id: number,
  delivery: { status: 'sent' | 'kept'; now: Date },
): Promise<void> {
  const { status, now } = delivery;
  await tx
    .updateTable('mail_outbox')
    .set((eb) => ({ status, sent_at: now, attempts: eb('attempts', '+', 1), last_error: null }))
    .where('id', '=', id)
    .execute();
}

/** A `ready` signer whose invitation went out becomes `sent` (its first send time kept). */
export async function markInvitedSignerSent(tx: Tx, signerId: number, now: Date): Promise<void> {
  await tx
    .updateTable('signers')
    .set((eb) => ({ status: 'sent', sent_at: eb.fn.coalesce('sent_at', eb.val(now)), updated_at: now }))
    .where('id', '=', signerId)
    .where('status', '=', 'ready')
    .execute();
}

/** The latest emails, newest first; `to` compared without case. */
export async function listMailRows(db: Executor, opts: { to?: string; limit: number }): Promise<MailRow[]> {
  let q = db.selectFrom('mail_outbox').selectAll().orderBy('id', 'desc').limit(opts.limit);
  const to = opts.to;
  if (to) q = q.where((eb) => eb(eb.fn('lower', ['to_address']), '=', to.toLowerCase()));
  return q.execute();
}

// ---- Purging signing links and codes at rest ---------------------------------------------------

/** What a purge writes: the marker replacing the body, and the subject of a code email. */
export interface MailPurge {
  marker: string;
  /** The kind of the code emails, whose subject (it carries the code) is replaced too. */
  codeKind: string;
  codeSubject: string;
  now: Date;
}

function purgedBody(purge: MailPurge) {
  return (eb: ExpressionBuilder<Database, 'mail_outbox'>) => ({
    subject: eb
      .case()
      .when('kind', '=', purge.codeKind)
      .then(purge.codeSubject)
      .else(eb.ref('subject'))
      .end(),
    text_body: purge.marker,
    html_body: `<p>${purge.marker}</p>`,
    links: json([]),
    redacted_at: purge.now,
  });
}

/** Purges one email's body, unless already purged. */
export async function purgeMailBody(db: Executor, mailId: number, purge: MailPurge): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set(purgedBody(purge))
    .where('id', '=', mailId)
    .where('redacted_at', 'is', null)
    .execute();
}

/** Purges the bodies of these signers' emails of these kinds, unless already purged. */
export async function purgeSignerMailBodies(
  db: Executor,
  emails: { signerIds: number[]; kinds: string[] },
  purge: MailPurge,
): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set(purgedBody(purge))
    .where('signer_id', 'in', emails.signerIds)
    .where('kind', 'in', emails.kinds)
    .where('redacted_at', 'is', null)
    .execute();
}

/** Purges every sent email that still holds a body; returns how many. */
export async function purgeSentMailBodies(db: Executor, purge: MailPurge): Promise<number> {
  const sent = await db
    .updateTable('mail_outbox')
    .set(purgedBody(purge))
    .where('redacted_at', 'is', null)
    .where('status', '=', 'sent')
    .executeTakeFirst();
  return Number(sent.numUpdatedRows);
}

/**
 * Purges the emails whose secret no longer works, at `purge.now`: a code email whose signer has no
 * live code (none, expired, or `codeMaxAttempts` wrong tries), and a signing-link email whose
 * signer signed or declined or whose request is no longer open (not sent / in progress, or
 * expired). Returns how many. Reads only rows that still hold a body (partial index
 * mail_outbox_unredacted_idx).
 */
export async function purgeSpentSecretMailBodies(
  db: Executor,
  spent: { linkKinds: readonly string[]; codeMaxAttempts: number },
  purge: MailPurge,
): Promise<number> {
  const { now } = purge;
  const result = await db
    .updateTable('mail_outbox as m')
    .set(purgedBody(purge) as never)
    .where('m.redacted_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb.and([
          eb('m.kind', '=', purge.codeKind),
          eb.not(
            eb.exists(
              eb
                .selectFrom('signers as s')
                .select(sql`1`.as('one'))
                .whereRef('s.id', '=', 'm.signer_id')
                .where('s.otp_hash', 'is not', null)
                .where('s.otp_expires_at', '>', now)
                .where('s.otp_attempts', '<', spent.codeMaxAttempts),
            ),
          ),
        ]),
        eb.and([
          eb('m.kind', 'in', [...spent.linkKinds]),
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
  return Number(result.numUpdatedRows);
}
