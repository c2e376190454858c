import type { Executor, Tx, UserRole } from '@esign/db';
import { findAccountName } from '@esign/db/queries/accounts';
import { revokeUserApiKeys } from '@esign/db/queries/api-keys';
import {
  findOpenInvitation,
  type InvitationListRow,
  insertInvitation,
  listOpenInvitations,
  lockOpenInvitation,
  markInvitationAccepted,
  revokePendingInvitation,
  revokePendingInvitationsTo,
} from '@esign/db/queries/invitations';
import {
  disableUser,
  findUserByEmail,
  listActiveMembers,
  lockActiveMembers,
  type MemberRow,
  updateUserById,
} from '@esign/db/queries/users';
import type { Actor } from '../../context.ts';
import { randomToken, sha256Hex } from '../../crypto.ts';
import { CoreError } from '../../errors.ts';
import { createUser } from '../accounts.ts';
import { queueMail, sendMailNow } from '../mail.ts';
import { revokeUserOAuthGrants } from '../oauth/connections.ts';
import type { ServiceContext } from '../service-context.ts';
import { memberInvitationEmail } from './emails.ts';
import { createSession, type NewSession, revokeUserSessions, type SessionMeta } from './sessions.ts';

const INVITATION_DAYS = 7;

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

const toMemberDto = (m: MemberRow): MemberDto => ({
  id: m.id,
  email: m.email,
  name: m.name,
  role: m.role,
  created_at: m.created_at.toISOString(),
});

const toInvitationDto = (i: InvitationListRow): InvitationDto => ({
  id: i.id,
  email: i.email,
  role: i.role,
  invited_by: i.invited_by,
  created_at: i.created_at.toISOString(),
  expires_at: i.expires_at.toISOString(),
});

/** The team page: the account's name, its active members and the invitations still waiting for an answer. */
export async function listMembers(
  db: Executor,
  accountId: number,
  now: Date,
): Promise<{
  account: { id: number; name: string | null };
  members: MemberDto[];
  invitations: InvitationDto[];
}> {
  const account = await findAccountName(db, accountId);
  if (!account) throw new CoreError('not_found', `Account ${accountId} was not found`);
  const members = await listActiveMembers(db, accountId);
  const invitations = await listOpenInvitations(db, accountId, now);
  return { account, members: members.map(toMemberDto), invitations: invitations.map(toInvitationDto) };
}

/**
 * Invites someone by email with a role: the link lets them choose a name and password and join.
 * A new invitation to the same address replaces the previous one. The email is sent at once, after
 * the commit (the mail job retries it if sending fails).
 */
export async function inviteMember(
  sc: ServiceContext,
  actor: Actor,
  input: { email: string; role: UserRole },
): Promise<InvitationDto> {
  const now = sc.now();
  const email = input.email.trim();
  const { invitation, mailId } = await sc.db.transaction().execute(async (tx) => {
    const existing = await findUserByEmail(tx, email);
    if (existing) {
      throw new CoreError(
        'invalid_parameter',
        existing.account_id === actor.accountId
          ? `${email} is already a member of this account`
          : `${email} already has an account on this service; a person can belong to one account only`,
      );
    }
    await revokePendingInvitationsTo(tx, actor.accountId, { email, now });
    const token = randomToken(32);
    const row = await insertInvitation(tx, {
      accountId: actor.accountId,
      email,
      role: input.role,
      tokenHash: sha256Hex(token),
      invitedByUserId: actor.userId,
      now,
      expiresAt: new Date(now.getTime() + INVITATION_DAYS * 86400_000),
    });
    const account = await findAccountName(tx, actor.accountId);
    const mail = memberInvitationEmail({
      url: `${sc.config.PUBLIC_URL}/invite#token=${token}`,
      accountName: account?.name ?? 'an account',
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
    return { mailId, invitation: toInvitationDto({ ...row, invited_by: actor.userEmail }) };
  });
  await sendMailNow(sc, [mailId]);
  return invitation;
}

const GONE = 'This invitation has expired, was withdrawn or was already used. Ask for a new one.';

/** What the invitation page shows before the person accepts. */
export async function describeInvitation(db: Executor, token: string, now: Date) {
  const row = await findOpenInvitation(db, sha256Hex(token), now);
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
  sc: ServiceContext,
  input: { token: string; name: string; password: string },
  meta: SessionMeta,
): Promise<NewSession> {
  const now = sc.now();
  return sc.db.transaction().execute(async (tx) => {
    const invitation = await lockOpenInvitation(tx, sha256Hex(input.token), now);
    if (!invitation) throw new CoreError('not_found', GONE);
    const user = await createUser(tx, {
      accountId: invitation.account_id,
      email: invitation.email,
      name: input.name,
      password: input.password,
      role: invitation.role,
    });
    await markInvitationAccepted(tx, invitation.id, now);
    return createSession(tx, user.id, { ...meta, now });
  });
}

export async function revokeInvitation(sc: ServiceContext, actor: Actor, id: number): Promise<void> {
  if (!(await revokePendingInvitation(sc.db, actor.accountId, { id, now: sc.now() }))) {
    throw new CoreError('not_found', `Invitation ${id} was not found`);
  }
}

/** Locks the account's active members and returns the target; another account's user is not found. */
async function lockMembers(tx: Tx, accountId: number, userId: number) {
  const members = await lockActiveMembers(tx, accountId);
  const target = members.find((m) => m.id === userId);
  if (!target) throw new CoreError('not_found', `Member ${userId} was not found`);
  const admins = members.filter((m) => m.role === 'admin').length;
  return { target, admins };
}

const LAST_ADMIN = 'An account needs at least one admin: make someone else an admin first';

export async function changeMemberRole(
  sc: ServiceContext,
  actor: Actor,
  input: { id: number; role: UserRole },
): Promise<MemberDto> {
  const now = sc.now();
  const { accountId } = actor;
  const { id: userId, role } = input;
  return sc.db.transaction().execute(async (tx) => {
    const { target, admins } = await lockMembers(tx, accountId, userId);
    if (target.role === 'admin' && role !== 'admin' && admins <= 1) {
      throw new CoreError('invalid_request', LAST_ADMIN);
    }
    const row = await updateUserById(tx, userId, { role, updated_at: now });
    if (!row) throw new CoreError('not_found', `Member ${userId} was not found`);
    return toMemberDto(row);
  });
}

/**
 * Removes a member: they can no longer sign in, their sessions end and their API keys and OAuth
 * connections are revoked. What they created stays with the account.
 */
export async function removeMember(sc: ServiceContext, actor: Actor, userId: number): Promise<void> {
  const now = sc.now();
  const { accountId } = actor;
  await sc.db.transaction().execute(async (tx) => {
    const { target, admins } = await lockMembers(tx, accountId, userId);
    if (target.role === 'admin' && admins <= 1) throw new CoreError('invalid_request', LAST_ADMIN);
    await disableUser(tx, userId, now);
    await revokeUserSessions(tx, userId, { keepId: null, now });
    await revokeUserApiKeys(tx, userId, now);
    await revokeUserOAuthGrants(tx, userId);
  });
}
