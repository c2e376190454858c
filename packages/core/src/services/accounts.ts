import type { Executor, UserRole } from '@esign/db';
import { isEmail } from '@esign/domain';
import { hashPassword } from '../crypto.ts';
import { CoreError } from '../errors.ts';

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
  const taken = await db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .executeTakeFirst();
  if (taken) throw new CoreError('invalid_parameter', `A user with email ${email} already exists`);
}

/** Creates an account (it has a live and a test side) with its first user, an admin. */
export async function createAccount(db: Executor, input: NewAccountInput, now: Date) {
  const email = checkEmail(input.email);
  await assertEmailFree(db, email);
  if (input.overdraft !== undefined && (!Number.isInteger(input.overdraft) || input.overdraft > 0)) {
    throw new CoreError('invalid_parameter', 'overdraft must be 0 or a negative integer');
  }
  if (input.credits !== undefined && (!Number.isInteger(input.credits) || input.credits < 0)) {
    throw new CoreError('invalid_parameter', 'credits must be a non-negative integer');
  }
  const account = await db
    .insertInto('accounts')
    .values({
      name: input.accountName ?? input.name ?? null,
      plan: input.lifetime ? 'lifetime' : 'credits',
      overdraft_limit: input.overdraft ?? 0,
    })
    .returning(['id', 'name'])
    .executeTakeFirstOrThrow();
  const user = await db
    .insertInto('users')
    .values({
      account_id: account.id,
      email,
      name: input.name ?? null,
      role: 'admin',
      password_hash: input.password ? await hashPassword(input.password) : null,
      billing_country: checkCountry(input.billingCountry),
    })
    .returning(['id', 'email', 'name'])
    .executeTakeFirstOrThrow();
  if (input.credits) {
    await db
      .insertInto('credit_ledger')
      .values({
        account_id: account.id,
        delta: input.credits,
        reason: 'grant',
        note: 'initial grant',
        created_at: now,
      })
      .execute();
  }
  return { account, user };
}

export async function archiveAccount(db: Executor, id: number, now: Date) {
  const row = await db
    .updateTable('accounts')
    .set((eb) => ({ archived_at: eb.fn.coalesce('archived_at', eb.val(now)), updated_at: now }))
    .where('id', '=', id)
    .returning(['id', 'archived_at'])
    .executeTakeFirst();
  if (!row) throw new CoreError('not_found', `Account ${id} was not found`);
  return { id: row.id, archived_at: row.archived_at?.toISOString() ?? null };
}

const userColumns = ['id', 'account_id', 'email', 'name', 'role', 'billing_country', 'created_at'] as const;

export async function createUser(
  db: Executor,
  input: {
    accountId: number;
    email: string;
    name?: string | null;
    password?: string | null;
    role?: UserRole;
  },
) {
  const email = checkEmail(input.email);
  const account = await db
    .selectFrom('accounts')
    .select('id')
    .where('id', '=', input.accountId)
    .executeTakeFirst();
  if (!account) throw new CoreError('not_found', `Account ${input.accountId} was not found`);
  await assertEmailFree(db, email);
  return db
    .insertInto('users')
    .values({
      account_id: input.accountId,
      email,
      name: input.name ?? null,
      role: input.role ?? 'member',
      password_hash: input.password ? await hashPassword(input.password) : null,
    })
    .returning(userColumns)
    .executeTakeFirstOrThrow();
}

export async function findUserByEmail(db: Executor, email: string) {
  return db
    .selectFrom('users')
    .select(userColumns)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.trim().toLowerCase()))
    .executeTakeFirst();
}

export async function requireUserByEmail(db: Executor, email: string) {
  const user = await findUserByEmail(db, email);
  if (!user) throw new CoreError('not_found', `No user with email ${email}`);
  return user;
}

export async function updateUser(
  db: Executor,
  email: string,
  patch: { name?: string | null; password?: string; billingCountry?: string | null },
  now: Date,
) {
  const user = await requireUserByEmail(db, email);
  return db
    .updateTable('users')
    .set({
      updated_at: now,
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.password !== undefined ? { password_hash: await hashPassword(patch.password) } : {}),
      ...(patch.billingCountry !== undefined ? { billing_country: checkCountry(patch.billingCountry) } : {}),
    })
    .where('id', '=', user.id)
    .returning(userColumns)
    .executeTakeFirstOrThrow();
}
