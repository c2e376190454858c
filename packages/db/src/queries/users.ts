import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Executor, Tx } from '../connection.ts';
import type { UsersTable } from '../schema.ts';

// The people of an account (`users`): sign-in, members, profiles. An email is one person on the
// whole service, compared case-insensitively (`lower(email)`, the unique index's expression).

export const USER_COLUMNS = [
  'id',
  'account_id',
  'email',
  'name',
  'role',
  'billing_country',
  'created_at',
] as const;

/** A user as services and the CLI show them (no password hash). */
export type UserRow = Pick<Selectable<UsersTable>, (typeof USER_COLUMNS)[number]>;

/** What decides whether a user may act: removed (`disabled_at`), their account archived. */
export interface UserStandingRow {
  id: number;
  account_id: number;
  email: string;
  name: string | null;
  role: UserRow['role'];
  disabled_at: Date | null;
  archived_at: Date | null;
}

/** The user an email address names (any case), if any. */
export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .select(USER_COLUMNS)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .executeTakeFirst();
}

export async function findUserById(db: Executor, id: number): Promise<Selectable<UsersTable> | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A user with their account's state, by id. */
export async function findUserStanding(db: Executor, id: number): Promise<UserStandingRow | undefined> {
  return db
    .selectFrom('users')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .select([
      'users.id',
      'users.account_id',
      'users.email',
      'users.name',
      'users.role',
      'users.disabled_at',
      'accounts.archived_at',
    ])
    .where('users.id', '=', id)
    .executeTakeFirst();
}

export type SignInUserRow = Pick<
  UserStandingRow,
  'id' | 'account_id' | 'email' | 'disabled_at' | 'archived_at'
> & {
  password_hash: string | null;
};

/** The user an email address (already lower-cased) signs in as, with what decides whether they may. */
export async function findSignInUser(db: Executor, email: string): Promise<SignInUserRow | undefined> {
  return db
    .selectFrom('users')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .select([
      'users.id',
      'users.account_id',
      'users.email',
      'users.password_hash',
      'users.disabled_at',
      'accounts.archived_at',
    ])
    .where((eb) => eb(eb.fn('lower', ['users.email']), '=', email))
    .executeTakeFirst();
}

export async function findUserPasswordHash(db: Executor, id: number): Promise<string | null | undefined> {
  const row = await db.selectFrom('users').select('password_hash').where('id', '=', id).executeTakeFirst();
  return row?.password_hash;
}

export interface UserProfileRow {
  id: number;
  email: string;
  name: string | null;
  role: UserRow['role'];
  billing_country: string | null;
  has_password: boolean;
}

export async function findUserProfile(db: Executor, id: number): Promise<UserProfileRow | undefined> {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'name', 'role', 'billing_country'])
    .select((eb) => eb('password_hash', 'is not', null).$castTo<boolean>().as('has_password'))
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function insertUser(db: Executor, values: Insertable<UsersTable>): Promise<UserRow> {
  return db.insertInto('users').values(values).returning(USER_COLUMNS).executeTakeFirstOrThrow();
}

/** Writes `set` on one user and returns the row as it now is (undefined: no such user). */
export async function updateUserById(
  db: Executor,
  id: number,
  set: Updateable<UsersTable>,
): Promise<UserRow | undefined> {
  return db.updateTable('users').set(set).where('id', '=', id).returning(USER_COLUMNS).executeTakeFirst();
}

/** Stores a new password hash; `updatedAt` null leaves `updated_at` (a rehash is no change of the user's). */
export async function setUserPasswordHash(
  db: Executor,
  id: number,
  opts: { passwordHash: string; updatedAt: Date | null },
): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: opts.passwordHash, ...(opts.updatedAt ? { updated_at: opts.updatedAt } : {}) })
    .where('id', '=', id)
    .execute();
}

/** A removed member: can no longer sign in; what they made keeps pointing at the row. */
export async function disableUser(db: Executor, id: number, now: Date): Promise<void> {
  await db.updateTable('users').set({ disabled_at: now, updated_at: now }).where('id', '=', id).execute();
}

export type MemberRow = Pick<UserRow, 'id' | 'email' | 'name' | 'role' | 'created_at'>;

/** The account's active members (removed ones excluded), oldest first. */
export async function listActiveMembers(db: Executor, accountId: number): Promise<MemberRow[]> {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'name', 'role', 'created_at'])
    .where('account_id', '=', accountId)
    .where('disabled_at', 'is', null)
    .orderBy('id')
    .execute();
}

/** Locks the account's active members (`FOR UPDATE`): role changes and removals are decided on them all. */
export async function lockActiveMembers(tx: Tx, accountId: number): Promise<Pick<UserRow, 'id' | 'role'>[]> {
  return tx
    .selectFrom('users')
    .select(['id', 'role'])
    .where('account_id', '=', accountId)
    .where('disabled_at', 'is', null)
    .forUpdate()
    .execute();
}

/** Locks one user's row (`FOR UPDATE`): serialises that user's work; undefined when there is none. */
export async function lockUser(tx: Tx, id: number): Promise<{ id: number } | undefined> {
  return tx.selectFrom('users').select('id').where('id', '=', id).forUpdate().executeTakeFirst();
}
