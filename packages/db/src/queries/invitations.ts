import type { Executor, Tx } from '../connection.ts';
import type { UserRole } from '../schema.ts';

// Invitations to join an account with a role (`invitations`), found by the SHA-256 of their token.
// "Open" means not accepted, not revoked and not expired at the caller's `now`.

export interface InvitationListRow {
  id: number;
  email: string;
  role: UserRole;
  created_at: Date;
  expires_at: Date;
  /** The inviter's email. */
  invited_by: string | null;
}

/** The account's open invitations, newest first. */
export async function listOpenInvitations(
  db: Executor,
  accountId: number,
  now: Date,
): Promise<InvitationListRow[]> {
  return db
    .selectFrom('invitations')
    .leftJoin('users', 'users.id', 'invitations.invited_by_user_id')
    .select([
      'invitations.id',
      'invitations.email',
      'invitations.role',
      'invitations.created_at',
      'invitations.expires_at',
      'users.email as invited_by',
    ])
    .where('invitations.account_id', '=', accountId)
    .where('invitations.accepted_at', 'is', null)
    .where('invitations.revoked_at', 'is', null)
    .where('invitations.expires_at', '>', now)
    .orderBy('invitations.id', 'desc')
    .execute();
}

/** Revokes the account's pending invitations to an address (any case). */
export async function revokePendingInvitationsTo(
  db: Executor,
  accountId: number,
  opts: { email: string; now: Date },
): Promise<void> {
  await db
    .updateTable('invitations')
    .set({ revoked_at: opts.now })
    .where('account_id', '=', accountId)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', opts.email.toLowerCase()))
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .execute();
}

export type NewInvitationRow = Omit<InvitationListRow, 'invited_by'>;

export async function insertInvitation(
  db: Executor,
  values: {
    accountId: number;
    email: string;
    role: UserRole;
    tokenHash: string;
    invitedByUserId: number;
    now: Date;
    expiresAt: Date;
  },
): Promise<NewInvitationRow> {
  return db
    .insertInto('invitations')
    .values({
      account_id: values.accountId,
      email: values.email,
      role: values.role,
      token_hash: values.tokenHash,
      invited_by_user_id: values.invitedByUserId,
      created_at: values.now,
      expires_at: values.expiresAt,
    })
    .returning(['id', 'email', 'role', 'created_at', 'expires_at'])
    .executeTakeFirstOrThrow();
}

/** An open invitation of a live account (not archived), with what its page shows. */
export interface OpenInvitationRow {
  id: number;
  account_id: number;
  email: string;
  role: UserRole;
  account_name: string | null;
  inviter_name: string | null;
  inviter_email: string | null;
}

function openInvitationQuery(db: Executor, tokenHash: string, now: Date) {
  return db
    .selectFrom('invitations')
    .innerJoin('accounts', 'accounts.id', 'invitations.account_id')
    .leftJoin('users', 'users.id', 'invitations.invited_by_user_id')
    .select([
      'invitations.id',
      'invitations.account_id',
      'invitations.email',
      'invitations.role',
      'accounts.name as account_name',
      'users.name as inviter_name',
      'users.email as inviter_email',
    ])
    .where('invitations.token_hash', '=', tokenHash)
    .where('invitations.accepted_at', 'is', null)
    .where('invitations.revoked_at', 'is', null)
    .where('invitations.expires_at', '>', now)
    .where('accounts.archived_at', 'is', null);
}

export async function findOpenInvitation(
  db: Executor,
  tokenHash: string,
  now: Date,
): Promise<OpenInvitationRow | undefined> {
  return openInvitationQuery(db, tokenHash, now).executeTakeFirst();
}

/** findOpenInvitation with the invitation row locked (`FOR UPDATE OF invitations`) until commit. */
export async function lockOpenInvitation(
  tx: Tx,
  tokenHash: string,
  now: Date,
): Promise<OpenInvitationRow | undefined> {
  return openInvitationQuery(tx, tokenHash, now).forUpdate('invitations').executeTakeFirst();
}

export async function markInvitationAccepted(db: Executor, id: number, now: Date): Promise<void> {
  await db.updateTable('invitations').set({ accepted_at: now }).where('id', '=', id).execute();
}

/** Revokes one pending invitation of the account; false when it has none by that id. */
export async function revokePendingInvitation(
  db: Executor,
  accountId: number,
  opts: { id: number; now: Date },
): Promise<boolean> {
  const row = await db
    .updateTable('invitations')
    .set({ revoked_at: opts.now })
    .where('id', '=', opts.id)
    .where('account_id', '=', accountId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}
