import type { Insertable } from 'kysely';
import type { Executor, Tx } from '../connection.ts';
import type { Database, MailRow } from '../schema.ts';

// The mail outbox: queued emails and their delivery (packages/core/src/services/mail.ts). The
// claim, the failed attempts and the purge of signing links and codes at rest are shared with the
// SMS outbox (outbox.ts; services/mail-secrets.ts says when to purge).

export type NewMailRow = Insertable<Database['mail_outbox']>;

export async function insertMail(tx: Executor, values: NewMailRow): Promise<number> {
  const row = await tx.insertInto('mail_outbox').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
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
