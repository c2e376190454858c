import type { Executor, Tx, UserRole } from '@esign/db';
import {
  type AccountNameRow,
  archiveAccountRow,
  findAccountLocale,
  findAccountName,
  insertAccount,
  insertInitialGrant,
  renameAccount as renameAccountRow,
  setAccountLocale,
} from '@esign/db/queries/accounts';
import {
  findUserProfile,
  findUserByEmail as findUserRowByEmail,
  insertUser,
  type UserProfileRow,
  type UserRow,
  updateUserById,
} from '@esign/db/queries/users';
import { isEmail } from '@esign/domain';
import type { Actor } from '../context.ts';
import { hashPassword } from '../crypto.ts';
import { CoreError } from '../errors.ts';
import type { ServiceContext } from './service-context.ts';

export interface NewAccountInput {
  email: string;
  name?: string | null;
  password?: string | null;
  accountName?: string | null;
  billingCountry?: string | null;
  credits?: number;
  overdraft?: number;
  lifetime?: boolean;
}

const COUNTRY = /^[A-Z]{2}$/;

function checkCountry(cc: string | null | undefined): string | null {
  if (cc == null) return null;
  const up = cc.toUpperCase();
  if (!COUNTRY.test(up))
    throw new CoreError(
      'invalid_parameter',
      `Billing country must be an ISO 3166-1 alpha-2 code such as US, got "${cc}"`,
    );
  return up;
}

function checkEmail(email: string): string {
  const e = email.trim();
  if (!isEmail(e)) throw new CoreError('invalid_parameter', `Invalid email address "${email}"`);
  return e;
}

async function assertEmailFree(db: Executor, email: string): Promise<void> {
  if (await findUserRowByEmail(db, email))
    throw new CoreError('invalid_parameter', `A user with email ${email} already exists`);
}

/** Creates an account (it has a live and a test side) with its first user, an admin. */
export async function createAccount(tx: Tx, input: NewAccountInput, now: Date) {
  const email = checkEmail(input.email);
  await assertEmailFree(tx, email);
  if (input.overdraft !== undefined && (!Number.isInteger(input.overdraft) || input.overdraft > 0)) {
    throw new CoreError('invalid_parameter', 'overdraft must be 0 or a negative integer');
  }
  if (input.credits !== undefined && (!Number.isInteger(input.credits) || input.credits < 0)) {
    throw new CoreError('invalid_parameter', 'credits must be a non-negative integer');
  }
  const account = await insertAccount(tx, {
    name: input.accountName ?? input.name ?? null,
    plan: input.lifetime ? 'lifetime' : 'credits',
    overdraftLimit: input.overdraft ?? 0,
  });
  const user = await insertUser(tx, {
    account_id: account.id,
    email,
    name: input.name ?? null,
    role: 'admin',
    password_hash: input.password ? await hashPassword(input.password) : null,
    billing_country: checkCountry(input.billingCountry),
  });
  if (input.credits) await insertInitialGrant(tx, account.id, { credits: input.credits, now });
  return { account, user: { id: user.id, email: user.email, name: user.name } };
}

export async function archiveAccount(db: Executor, id: number, now: Date) {
  const row = await archiveAccountRow(db, id, now);
  if (!row) throw new CoreError('not_found', `Account ${id} was not found`);
  return { id: row.id, archived_at: row.archived_at?.toISOString() ?? null };
}

export async function createUser(
  db: Executor,
  input: {
    accountId: number;
    email: string;
    name?: string | null;
    password?: string | null;
    role?: UserRole;
  },
): Promise<UserRow> {
  const email = checkEmail(input.email);
  const account = await findAccountName(db, input.accountId);
  if (!account) throw new CoreError('not_found', `Account ${input.accountId} was not found`);
  await assertEmailFree(db, email);
  return insertUser(db, {
    account_id: input.accountId,
    email,
    name: input.name ?? null,
    role: input.role ?? 'member',
    password_hash: input.password ? await hashPassword(input.password) : null,
  });
}

export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  return findUserRowByEmail(db, email.trim());
}

export async function requireUserByEmail(db: Executor, email: string): Promise<UserRow> {
  const user = await findUserByEmail(db, email);
  if (!user) throw new CoreError('not_found', `No user with email ${email}`);
  return user;
}

export async function updateUser(
  db: Executor,
  email: string,
  { now, ...patch }: { name?: string | null; password?: string; billingCountry?: string | null; now: Date },
): Promise<UserRow> {
  const user = await requireUserByEmail(db, email);
  const row = await updateUserById(db, user.id, {
    updated_at: now,
    ...(patch.name !== undefined ? { name: patch.name } : {}),
    ...(patch.password !== undefined ? { password_hash: await hashPassword(patch.password) } : {}),
    ...(patch.billingCountry !== undefined ? { billing_country: checkCountry(patch.billingCountry) } : {}),
  });
  if (!row) throw new CoreError('not_found', `No user with email ${email}`);
  return row;
}

/** The account's id and name (what the dashboard and GET /me show). */
export async function getAccount(db: Executor, accountId: number): Promise<AccountNameRow> {
  const account = await findAccountName(db, accountId);
  if (!account) throw new CoreError('not_found', `Account ${accountId} was not found`);
  return account;
}

/** Renames the actor's account (its name is the sender shown in invitation emails). */
export async function renameAccount(sc: ServiceContext, actor: Actor, name: string): Promise<AccountNameRow> {
  const row = await renameAccountRow(sc.db, actor.accountId, { name, now: sc.now() });
  if (!row) throw new CoreError('not_found', `Account ${actor.accountId} was not found`);
  return row;
}

/** The signed-in user's own profile, and whether they have a password (else they sign in by link). */
export async function getProfile(db: Executor, userId: number): Promise<UserProfileRow> {
  const user = await findUserProfile(db, userId);
  if (!user) throw new CoreError('not_found', `User ${userId} was not found`);
  return user;
}

/** The account's default language for signers (a BCP 47 tag), or null. */
export async function getAccountLanguage(db: Executor, accountId: number): Promise<string | null> {
  return findAccountLocale(db, accountId);
}

/**
 * Sets the account's default language for signers (checked by the schema as a BCP 47 tag), or
 * clears it with null: then a signer's browser language decides on the page, English in emails.
 */
export async function setAccountLanguage(
  sc: ServiceContext,
  actor: Actor,
  locale: string | null,
): Promise<{ default_locale: string | null }> {
  const row = await setAccountLocale(sc.db, actor.accountId, { locale, now: sc.now() });
  if (!row) throw new CoreError('not_found', `Account ${actor.accountId} was not found`);
  return { default_locale: row.default_locale };
}
