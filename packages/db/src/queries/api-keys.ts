import { CompiledQuery } from 'kysely';
import { type Executor, preparedSql } from '../connection.ts';
import type { Environment, Permission, UserRole } from '../schema.ts';

// API keys (`api_keys`), found by the SHA-256 of the key: hashing is the caller's.

/** Why a key cannot be used (apiKeyRefusalSql), null when it can. */
export type ApiKeyRefusal = 'revoked' | 'account_archived' | 'expired';

/** The key with its user and account, as authentication reads it, and whether it can be used now. */
export interface ApiKeyAuthRow {
  id: number;
  name: string;
  environment: Environment;
  permission: Permission;
  expires_at: Date | null;
  last_used_at: Date | null;
  account_id: number;
  user_id: number;
  email: string;
  user_name: string | null;
  role: UserRole;
  refusal: ApiKeyRefusal | null;
}

/**
 * Whether an API key can be used at `now` (authentication rule 6), the one home of this rule
 * (issue 43): null when it can, otherwise the first reason it cannot, in this order: revoked, its
 * account archived, expired. Both statements below read it; the key's window is counted only when
 * it is null, and the caller (keyActor) turns a reason into its error without deciding again.
 */
function apiKeyRefusalSql(now: string): string {
  return `case when api_keys.revoked_at is not null then 'revoked'
    when accounts.archived_at is not null then 'account_archived'
    when api_keys.expires_at <= ${now} then 'expired' end`;
}

/** The key by its hash ($hash) with its user, account and refusal at $now (ApiKeyAuthRow). */
function keyRowSql(hash: string, now: string): string {
  return `select api_keys.id, api_keys.name, api_keys.environment, api_keys.permission,
    api_keys.expires_at, api_keys.last_used_at, api_keys.account_id, users.id as user_id,
    users.email, users.name as user_name, users.role, ${apiKeyRefusalSql(now)} as refusal
  from api_keys
  join users on users.id = api_keys.user_id
  join accounts on accounts.id = api_keys.account_id
  where api_keys.key_hash = ${hash}`;
}

const KEY_SQL = preparedSql('esign_key', keyRowSql('$1', '$2::timestamptz'));

/** The key by the SHA-256 of its secret, with whether it can be used at `now`. */
export async function findApiKeyByHash(
  db: Executor,
  keyHash: string,
  now: Date,
): Promise<ApiKeyAuthRow | undefined> {
  const { rows } = await db.executeQuery<ApiKeyAuthRow>(CompiledQuery.raw(KEY_SQL, [keyHash, now]));
  return rows[0];
}

export async function touchApiKey(db: Executor, id: number, now: Date): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', id).execute();
}

/**
 * The key row (as findApiKeyByHash reads it) and, only when the key is usable (its refusal is null), its rate-limit
 * window counted and `last_used_at` refreshed, in one statement. It runs on every API request, so
 * it is written once as SQL text and sent as it is (no query builder work per request).
 * $1 key hash, $2 now, $3 the window's start, $4 `last_used_at` older than this is refreshed,
 * $5 how many calls the request makes (each call of a batch counts).
 */
const KEY_AND_WINDOW_SQL = preparedSql(
  'esign_key_and_window',
  `with k as (
  ${keyRowSql('$1', '$2::timestamptz')}
), usable as (
  select id, last_used_at from k where refusal is null
), hit as (
  insert into rate_limit_windows (bucket, window_start, count)
  select 'api_key:' || usable.id, $3, $5::integer from usable
  on conflict (bucket, window_start) do update set count = rate_limit_windows.count + excluded.count
  returning count
), touch as (
  update api_keys set last_used_at = $2
  where id in (select id from usable where last_used_at is null or last_used_at < $4)
)
select k.*, (select count from hit) as window_count,
  -- see asyncCommit (rate-limit.ts): this statement's own commit does not wait for the WAL flush
  set_config('synchronous_commit', 'off', true) as async_commit
from k`,
);

/**
 * One round trip per API request: the key by its hash and, when it is usable at `now` (not
 * revoked, account not archived, not expired), `calls` counted in the fixed window `api_key:<id>`
 * starting at `windowStart` (`window_count`, null when unusable) and `last_used_at` set to `now`
 * when it is older than `staleBefore`.
 */
export async function findApiKeyAndCountWindow(
  db: Executor,
  keyHash: string,
  opts: { now: Date; windowStart: Date; staleBefore: Date; calls: number },
): Promise<(ApiKeyAuthRow & { window_count: number | null }) | undefined> {
  const { rows } = await db.executeQuery<ApiKeyAuthRow & { window_count: number | null }>(
    CompiledQuery.raw(KEY_AND_WINDOW_SQL, [
      keyHash,
      opts.now,
      opts.windowStart,
      opts.staleBefore,
      opts.calls,
    ]),
  );
  return rows[0];
}

export async function insertApiKey(
  db: Executor,
  values: {
    accountId: number;
    userId: number;
    environment: Environment;
    permission: Permission;
    name: string;
    keyHash: string;
    keyPrefix: string;
    expiresAt: Date | null;
  },
): Promise<{ id: number; expires_at: Date | null }> {
  return db
    .insertInto('api_keys')
    .values({
      account_id: values.accountId,
      user_id: values.userId,
      environment: values.environment,
      permission: values.permission,
      name: values.name,
      key_hash: values.keyHash,
      key_prefix: values.keyPrefix,
      expires_at: values.expiresAt,
    })
    .returning(['id', 'expires_at'])
    .executeTakeFirstOrThrow();
}

/** Revokes a key (an earlier revocation time is kept); undefined when there is no such key. */
export async function revokeApiKeyRow(
  db: Executor,
  id: number,
  now: Date,
): Promise<{ id: number; revoked_at: Date | null } | undefined> {
  return db
    .updateTable('api_keys')
    .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(now)) }))
    .where('id', '=', id)
    .returning(['id', 'revoked_at'])
    .executeTakeFirst();
}

/** Revokes every unrevoked key of a user (a removed member). */
export async function revokeUserApiKeys(db: Executor, userId: number, now: Date): Promise<void> {
  await db
    .updateTable('api_keys')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Whether the account has a key by that id (either side). */
export async function accountHasApiKey(db: Executor, accountId: number, id: number): Promise<boolean> {
  const row = await db
    .selectFrom('api_keys')
    .select('id')
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row !== undefined;
}

export interface ApiKeyListRow {
  id: number;
  name: string;
  key_prefix: string;
  environment: Environment;
  permission: Permission;
  expires_at: Date | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
  user_id: number;
  email: string;
}

/** The account's keys (both sides) with their users, newest first. */
export async function listApiKeysOfAccount(
  db: Executor,
  accountId: number,
  opts: { limit: number },
): Promise<ApiKeyListRow[]> {
  return db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select([
      'api_keys.id',
      'api_keys.name',
      'api_keys.key_prefix',
      'api_keys.environment',
      'api_keys.permission',
      'api_keys.expires_at',
      'api_keys.last_used_at',
      'api_keys.revoked_at',
      'api_keys.created_at',
      'users.id as user_id',
      'users.email',
    ])
    .where('api_keys.account_id', '=', accountId)
    .orderBy('api_keys.id', 'desc')
    .limit(opts.limit)
    .execute();
}
