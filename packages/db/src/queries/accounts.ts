import type { Executor } from '../connection.ts';

// Accounts (`accounts`): one customer, with a live and a test side.

export interface AccountNameRow {
  id: number;
  name: string | null;
}

export async function insertAccount(
  db: Executor,
  values: { name: string | null; plan: 'credits' | 'lifetime'; overdraftLimit: number },
): Promise<AccountNameRow> {
  return db
    .insertInto('accounts')
    .values({ name: values.name, plan: values.plan, overdraft_limit: values.overdraftLimit })
    .returning(['id', 'name'])
    .executeTakeFirstOrThrow();
}

/** The credits a new account starts with: its first `grant` in the ledger. */
export async function insertInitialGrant(
  db: Executor,
  accountId: number,
  opts: { credits: number; now: Date },
): Promise<void> {
  await db
    .insertInto('credit_ledger')
    .values({
      account_id: accountId,
      delta: opts.credits,
      reason: 'grant',
      note: 'initial grant',
      created_at: opts.now,
    })
    .execute();
}

/** The account's id and name, or undefined when there is no such account. */
export async function findAccountName(db: Executor, id: number): Promise<AccountNameRow | undefined> {
  return db.selectFrom('accounts').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
}

export async function renameAccount(
  db: Executor,
  id: number,
  opts: { name: string; now: Date },
): Promise<AccountNameRow | undefined> {
  return db
    .updateTable('accounts')
    .set({ name: opts.name, updated_at: opts.now })
    .where('id', '=', id)
    .returning(['id', 'name'])
    .executeTakeFirst();
}

/** Archives the account (the first archive time is kept); undefined when there is no such account. */
export async function archiveAccountRow(
  db: Executor,
  id: number,
  now: Date,
): Promise<{ id: number; archived_at: Date | null } | undefined> {
  return db
    .updateTable('accounts')
    .set((eb) => ({ archived_at: eb.fn.coalesce('archived_at', eb.val(now)), updated_at: now }))
    .where('id', '=', id)
    .returning(['id', 'archived_at'])
    .executeTakeFirst();
}

/** The account's default language for signers (a BCP 47 tag), or null when none is set. */
export async function findAccountLocale(db: Executor, id: number): Promise<string | null> {
  const row = await db
    .selectFrom('accounts')
    .select('default_locale')
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.default_locale ?? null;
}

/** Sets (or with null clears) the account's default language for signers. */
export async function setAccountLocale(
  db: Executor,
  id: number,
  opts: { locale: string | null; now: Date },
): Promise<{ id: number; default_locale: string | null } | undefined> {
  return db
    .updateTable('accounts')
    .set({ default_locale: opts.locale, updated_at: opts.now })
    .where('id', '=', id)
    .returning(['id', 'default_locale'])
    .executeTakeFirst();
}
