import { sql } from 'kysely';
import type { Executor } from '../connection.ts';

// Single sign-on with OpenID Connect (migration 2026_12_07_1201): an account's provider (its
// client secret sealed by the caller), its email domains, and sign-ins sent to the provider (by
// the SHA-256 of their state).

export interface AccountSsoRow {
  account_id: number;
  issuer: string;
  client_id: string;
  client_secret_sealed: string;
  default_role: 'admin' | 'member' | 'viewer';
  role_claim: string | null;
  role_map: Record<string, string>;
  required: boolean;
  break_glass_user_id: number | null;
  domains: string[];
}

export async function findAccountSso(db: Executor, accountId: number): Promise<AccountSsoRow | undefined> {
  const row = await db
    .selectFrom('account_sso')
    .selectAll('account_sso')
    .select((eb) =>
      eb
        .selectFrom('account_sso_domains')
        .select(sql<string[]>`coalesce(array_agg(domain order by domain), '{}')`.as('d'))
        .whereRef('account_sso_domains.account_id', '=', 'account_sso.account_id')
        .as('domains'),
    )
    .where('account_sso.account_id', '=', accountId)
    .executeTakeFirst();
  return row && { ...row, domains: row.domains ?? [] };
}

export async function findSsoAccountByDomain(db: Executor, domain: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('account_sso_domains')
    .innerJoin('account_sso', 'account_sso.account_id', 'account_sso_domains.account_id')
    .select('account_sso_domains.account_id')
    .where('domain', '=', domain)
    .executeTakeFirst();
  return row?.account_id;
}

/** Domains of these that another account already claims. */
export async function domainsTakenByOthers(
  db: Executor,
  values: { accountId: number; domains: string[] },
): Promise<string[]> {
  if (values.domains.length === 0) return [];
  const rows = await db
    .selectFrom('account_sso_domains')
    .select('domain')
    .where('domain', 'in', values.domains)
    .where('account_id', '!=', values.accountId)
    .execute();
  return rows.map((r) => r.domain);
}

export async function saveAccountSso(
  db: Executor,
  values: Omit<AccountSsoRow, 'domains' | 'role_map'> & { role_map: Record<string, string>; now: Date },
  domains: string[],
): Promise<void> {
  const { now, ...row } = values;
  const set = { ...row, role_map: JSON.stringify(row.role_map), updated_at: now };
  await db
    .insertInto('account_sso')
    .values({ ...set, created_at: now })
    .onConflict((oc) => oc.column('account_id').doUpdateSet(set))
    .execute();
  await db.deleteFrom('account_sso_domains').where('account_id', '=', values.account_id).execute();
  if (domains.length > 0) {
    await db
      .insertInto('account_sso_domains')
      .values(domains.map((domain) => ({ domain, account_id: values.account_id })))
      .execute();
  }
}

export async function deleteAccountSso(db: Executor, accountId: number): Promise<boolean> {
  await db.deleteFrom('account_sso_domains').where('account_id', '=', accountId).execute();
  const row = await db
    .deleteFrom('account_sso')
    .where('account_id', '=', accountId)
    .returning('account_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether the account requires single sign-on of this user (everyone but the break-glass admin). */
export async function ssoRequiredFor(
  db: Executor,
  values: { accountId: number; userId: number },
): Promise<boolean> {
  const row = await db
    .selectFrom('account_sso')
    .select(['required', 'break_glass_user_id'])
    .where('account_id', '=', values.accountId)
    .executeTakeFirst();
  return Boolean(row?.required && row.break_glass_user_id !== values.userId);
}

export async function insertSsoLogin(
  db: Executor,
  values: {
    stateHash: string;
    accountId: number;
    nonce: string;
    codeVerifier: string;
    next: string | null;
    now: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await db
    .insertInto('sso_logins')
    .values({
      state_hash: values.stateHash,
      account_id: values.accountId,
      nonce: values.nonce,
      code_verifier: values.codeVerifier,
      next: values.next,
      created_at: values.now,
      expires_at: values.expiresAt,
    })
    .execute();
}

/** Spends a sign-in sent to the provider (atomic, once, unexpired). */
export async function useSsoLogin(
  db: Executor,
  values: { stateHash: string; now: Date },
): Promise<{ account_id: number; nonce: string; code_verifier: string; next: string | null } | undefined> {
  return db
    .updateTable('sso_logins')
    .set({ used_at: values.now })
    .where('state_hash', '=', values.stateHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', values.now)
    .returning(['account_id', 'nonce', 'code_verifier', 'next'])
    .executeTakeFirst();
}

/** Turns "require single sign-on" on or off; true when it changed. */
export async function setAccountSsoRequired(
  db: Executor,
  accountId: number,
  required: boolean,
): Promise<boolean> {
  const row = await db
    .updateTable('account_sso')
    .set({ required })
    .where('account_id', '=', accountId)
    .where('required', '!=', required)
    .returning('account_id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Removes sign-ins that can no longer complete: passkey requests, single sign-ons sent to a
 * provider and second-step challenges expired before `before`. Returns how many of each went.
 */
export async function deleteExpiredSignInAttempts(
  db: Executor,
  before: Date,
): Promise<{ webauthn: number; sso: number; challenges: number }> {
  const webauthn = await db
    .deleteFrom('webauthn_challenges')
    .where('expires_at', '<', before)
    .executeTakeFirst();
  const sso = await db.deleteFrom('sso_logins').where('expires_at', '<', before).executeTakeFirst();
  const challenges = await db
    .deleteFrom('sign_in_challenges')
    .where('expires_at', '<', before)
    .executeTakeFirst();
  return {
    webauthn: Number(webauthn.numDeletedRows),
    sso: Number(sso.numDeletedRows),
    challenges: Number(challenges.numDeletedRows),
  };
}
