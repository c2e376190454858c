import { json, type Tx } from '../connection.ts';
import type { SignerRow } from '../schema.ts';

// Issue 34.3, handing a turn to someone else: the signer row takes the new person, a new link and
// an empty form; the first person's email-code sessions end.

/** Who takes the turn over, with the new link's nonce and hash. */
export interface DelegateTo {
  name: string;
  email: string | null;
  phone: string | null;
  /** Their language (BCP 47), or null for the request's, the account's or the browser's. */
  locale: string | null;
  token_nonce: string;
  token_hash: string;
}

/**
 * The signer becomes the new person: new link (the old one stops resolving), drafts, views, code
 * and counters cleared, `ready` with its turn starting now. Returns the signer as it is now.
 */
export async function delegateSignerRow(
  tx: Tx,
  signerId: number,
  to: DelegateTo & { now: Date },
): Promise<SignerRow> {
  const { now } = to;
  return tx
    .updateTable('signers')
    .set({
      name: to.name,
      email: to.email,
      phone: to.phone,
      locale: to.locale,
      token_nonce: to.token_nonce,
      token_hash: to.token_hash,
      status: 'ready',
      values: json({}),
      invited_at: now,
      sent_at: null,
      viewed_at: null,
      started_at: null,
      last_emailed_at: null,
      otp_hash: null,
      otp_expires_at: null,
      otp_attempts: 0,
      otp_verified_at: null,
      ip: null,
      user_agent: null,
      auto_reminders: 0,
      updated_at: now,
    })
    .where('id', '=', signerId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Ends the signer's email-code sessions (the first person's unlocked browser). */
export async function deleteSignerSessions(tx: Tx, signerId: number): Promise<void> {
  await tx.deleteFrom('signing_sessions').where('signer_id', '=', signerId).execute();
}
