import type { Db, Executor, UserRole } from '@esign/db';
import type { Config } from '../../config.ts';
import type { Actor } from '../../context.ts';
import { randomToken, sha256Hex } from '../../crypto.ts';
import { CoreError } from '../../errors.ts';
import { createUser } from '../accounts.ts';
import { queueMail } from '../mail.ts';
import { revokeUserOAuthGrants } from '../oauth/connections.ts';
import { memberInvitationEmail } from './emails.ts';
import { createSession, type NewSession, revokeUserSessions, type SessionMeta } from './sessions.ts';

export const INVITATION_DAYS = 7;

export interface MemberDto {
  id: number;
  email: string;
  name: string | null;
  role: UserRole;
  created_at: string;
}

export interface InvitationDto {
  id: number;
  email: string;
  role: UserRole;
  invited_by: string | null;
  created_at: string;
  expires_at: string;
}

/** The account's people: active members and invitations still waiting for an answer. */
export async function listMembers(
  db: Executor,
  accountId: number,
  now: Date,
): Promise<{ members: MemberDto[]; invitations: InvitationDto[] }> {
  const members = await db
    .selectFrom('users')
    .select(['id', 'email', 'name', 'role', 'created_at'])
    .where('account_id', '=', accountId)
    .where('disabled_at', 'is', null)
    .orderBy('id')
    .execute();
  const invitations = await db
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
  return {
    members: members.map((m) => ({ ...m, created_at: m.created_at.toISOString() })),
    invitations: invitations.map((i) => ({
      ...i,
      created_at: i.created_at.toISOString(),
      expires_at: i.expires_at.toISOString(),
    })),
  };
}

/**
 * Invites someone by email with a role: the link lets them choose a name and password and join.
 * A new invitation to the same address replaces the previous one. Returns the queued mail's id.
 */
export async function inviteMember(
  db: Db,
  actor: Actor,
  input: { email: string; role: UserRole },
  config: Pick<Config, 'PUBLIC_URL'>,
  now: Date,
): Promise<{ invitation: InvitationDto; mailId: number }> {
  const email = input.email.trim();
  return db.transaction().execute(async (tx) => {
    const existing = await tx
      .selectFrom('users')
      .select(['account_id'])
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
      .executeTakeFirst();
    if (existing) {
      throw new CoreError(
        'invalid_parameter',
        existing.account_id === actor.accountId
          ? `${email} is already a member of this account`
          : `${email} already has an account on this service; a person can belong to one account only`,
      );
    }
    await tx
      .updateTable('invitations')
      .set({ revoked_at: now })
      .where('account_id', '=', actor.accountId)
      .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
      .where('accepted_at', 'is', null)
      .where('revoked_at', 'is', null)
      .execute();
    const token = randomToken(32);
    const row = await tx
      .insertInto('invitations')
      .values({
        account_id: actor.accountId,
        email,
        role: input.role,
        token_hash: sha256Hex(token),
        invited_by_user_id: actor.userId,
        created_at: now,
        expires_at: new Date(now.getTime() + INVITATION_DAYS * 86400_000),
      })
      .returning(['id', 'email', 'role', 'created_at', 'expires_at'])
      .executeTakeFirstOrThrow();
    const account = await tx
      .selectFrom('accounts')
      .select('name')
      .where('id', '=', actor.accountId)
      .executeTakeFirstOrThrow();
    const mail = memberInvitationEmail({
      url: `${config.PUBLIC_URL}/invite#token=${token}`,
      accountName: account.name ?? 'an account',
      inviterName: actor.userName ?? actor.userEmail,
      role: input.role,
      days: INVITATION_DAYS,
    });
    const mailId = await queueMail(tx, {
      kind: 'member_invitation',
      to: email,
      accountId: actor.accountId,
      ...mail,
    });
    return {
      mailId,
      invitation: {
        id: row.id,
        email: row.email,
        role: row.role,
        invited_by: actor.userEmail,
        created_at: row.created_at.toISOString(),
        expires_at: row.expires_at.toISOString(),
      },
    };
  });
}

function openInvitation(db: Executor, token: string, now: Date) {
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
    .where('invitations.token_hash', '=', sha256Hex(token))
    .where('invitations.accepted_at', 'is', null)
    .where('invitations.revoked_at', 'is', null)
    .where('invitations.expires_at', '>', now)
    .where('accounts.archived_at', 'is', null);
}

const GONE = 'This invitation has expired, was withdrawn or was already used. Ask for a new one.';

/** What the invitation page shows before the person accepts. */
export async function describeInvitation(db: Executor, token: string, now: Date) {
  const row = await openInvitation(db, token, now).executeTakeFirst();
  if (!row) throw new CoreError('not_found', GONE);
  return {
    email: row.email,
    role: row.role,
    account_name: row.account_name,
    invited_by: row.inviter_name ?? row.inviter_email,
  };
}

/** Joins the account with the invitation's role and signs the new member in. */
export async function acceptInvitation(
  db: Db,
  input: { token: string; name: string; password: string },
  meta: SessionMeta,
  now: Date,
): Promise<NewSession> {
  return db.transaction().execute(async (tx) => {
    const invitation = await openInvitation(tx, input.token, now).forUpdate('invitations').executeTakeFirst();
    if (!invitation) throw new CoreError('not_found', GONE);
    const user = await createUser(tx, {
      accountId: invitation.account_id,
      email: invitation.email,
      name: input.name,
      password: input.password,
      role: invitation.role,
    });
    await tx.updateTable('invitations').set({ accepted_at: now }).where('id', '=', invitation.id).execute();
    return createSession(tx, user.id, meta, now);
  });
}

export async function revokeInvitation(
  db: Executor,
  accountId: number,
  id: number,
  now: Date,
): Promise<void> {
  const row = await db
    .updateTable('invitations')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  if (!row) throw new CoreError('not_found', `Invitation ${id} was not found`);
}

/** Locks the account's active members and returns the target; another account's user is not found. */
async function lockMembers(tx: Executor, accountId: number, userId: number) {
  const members = await tx
    .selectFrom('users')
    .select(['id', 'role'])
    .where('account_id', '=', accountId)
    .where('disabled_at', 'is', null)
    .forUpdate()
    .execute();
  const target = members.find((m) => m.id === userId);
  if (!target) throw new CoreError('not_found', `Member ${userId} was not found`);
  const admins = members.filter((m) => m.role === 'admin').length;
  return { target, admins };
}

const LAST_ADMIN = 'An account needs at least one admin: make someone else an admin first';

export async function changeMemberRole(
  db: Db,
  accountId: number,
  userId: number,
  role: UserRole,
  now: Date,
): Promise<MemberDto> {
  return db.transaction().execute(async (tx) => {
    const { target, admins } = await lockMembers(tx, accountId, userId);
    if (target.role === 'admin' && role !== 'admin' && admins <= 1) {
      throw new CoreError('invalid_request', LAST_ADMIN);
    }
    const row = await tx
      .updateTable('users')
      .set({ role, updated_at: now })
      .where('id', '=', userId)
      .returning(['id', 'email', 'name', 'role', 'created_at'])
      .executeTakeFirstOrThrow();
    return { ...row, created_at: row.created_at.toISOString() };
  });
}

/**
 * Removes a member: they can no longer sign in, their sessions end and their API keys and OAuth
 * connections are revoked. What they created stays with the account.
 */
export async function removeMember(db: Db, accountId: number, userId: number, now: Date): Promise<void> {
  await db.transaction().execute(async (tx) => {
    const { target, admins } = await lockMembers(tx, accountId, userId);
    if (target.role === 'admin' && admins <= 1) throw new CoreError('invalid_request', LAST_ADMIN);
    await tx
      .updateTable('users')
      .set({ disabled_at: now, updated_at: now })
      .where('id', '=', userId)
      .execute();
    await revokeUserSessions(tx, userId, null, now);
    await tx
      .updateTable('api_keys')
      .set({ revoked_at: now })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .execute();
    await revokeUserOAuthGrants(tx, userId);
  });
}
