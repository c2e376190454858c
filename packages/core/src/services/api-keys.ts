import { type Environment, type Executor, type Permission, preparedSql } from '@esign/db';
import { CompiledQuery } from 'kysely';
import type { Actor } from '../context.ts';
import { randomToken, sha256Hex } from '../crypto.ts';
import { CoreError } from '../errors.ts';

const KEY_PATTERN = /^svc_(live|test)_[A-Za-z0-9_-]{43}$/;

export interface IssuedKey {
  id: number;
  key: string;
  environment: Environment;
  permission: Permission;
  expires_at: string | null;
}

/** Creates a key for a user; the secret is returned once and only its SHA-256 is stored. */
export async function issueApiKey(
  db: Executor,
  input: {
    userId: number;
    environment: Environment;
    permission: Permission;
    name?: string;
    expiresAt?: Date | null;
  },
): Promise<IssuedKey> {
  const user = await db
    .selectFrom('users')
    .innerJoin('accounts', 'accounts.id', 'users.account_id')
    .select(['users.id', 'users.account_id', 'accounts.archived_at'])
    .where('users.id', '=', input.userId)
    .executeTakeFirst();
  if (!user) throw new CoreError('not_found', `User ${input.userId} was not found`);
  if (user.archived_at) throw new CoreError('invalid_request', 'The account is archived');
  const key = `svc_${input.environment}_${randomToken(32)}`;
  const row = await db
    .insertInto('api_keys')
    .values({
      account_id: user.account_id,
      user_id: user.id,
      environment: input.environment,
      permission: input.permission,
      name: input.name ?? 'Default key',
      key_hash: sha256Hex(key),
      key_prefix: key.slice(0, 16),
      expires_at: input.expiresAt ?? null,
    })
    .returning(['id', 'expires_at'])
    .executeTakeFirstOrThrow();
  return {
    id: row.id,
    key,
    environment: input.environment,
    permission: input.permission,
    expires_at: row.expires_at?.toISOString() ?? null,
  };
}

export async function revokeApiKey(
  db: Executor,
  id: number,
  now: Date,
): Promise<{ id: number; revoked_at: string }> {
  const row = await db
    .updateTable('api_keys')
    .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(now)) }))
    .where('id', '=', id)
    .returning(['id', 'revoked_at'])
    .executeTakeFirst();
  if (!row?.revoked_at) throw new CoreError('not_found', `API key ${id} was not found`);
  return { id: row.id, revoked_at: row.revoked_at.toISOString() };
}

/** The bearer token of an Authorization header, or 401 `unauthenticated` saying what is wrong. */
function bearerToken(authorization: string | undefined): string {
  if (!authorization) {
    throw new CoreError(
      'unauthenticated',
      'Missing API key: send the header Authorization: Bearer <API_KEY>',
    );
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  const token = match?.[1];
  if (!token || !KEY_PATTERN.test(token)) {
    throw new CoreError(
      'unauthenticated',
      'Malformed API key: expected Authorization: Bearer svc_live_... or svc_test_...',
    );
  }
  return token;
}

/** The key row with its user and account, as authentication reads it. */
function keyRowQuery(db: Executor, token: string) {
  return db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
    .select([
      'api_keys.id',
      'api_keys.name',
      'api_keys.environment',
      'api_keys.permission',
      'api_keys.expires_at',
      'api_keys.revoked_at',
      'api_keys.last_used_at',
      'api_keys.account_id',
      'users.id as user_id',
      'users.email',
      'users.name as user_name',
      'users.role',
      'accounts.archived_at',
    ])
    .where('api_keys.key_hash', '=', sha256Hex(token));
}

type KeyRow = NonNullable<Awaited<ReturnType<ReturnType<typeof keyRowQuery>['executeTakeFirst']>>>;

/** `last_used_at` is written at most once a minute per key. */
const LAST_USED_PRECISION_MS = 60_000;

/** The actor of a key row, or the rule-6 error (unknown or revoked key, archived account, expired). */
function keyActor(row: KeyRow | undefined, now: Date): Actor {
  if (!row || row.revoked_at) throw new CoreError('unauthenticated', 'Invalid or revoked API key');
  if (row.archived_at) throw new CoreError('unauthenticated', 'The account of this API key is archived');
  if (row.expires_at && row.expires_at <= now) {
    throw new CoreError('api_key_expired', `This API key expired at ${row.expires_at.toISOString()}`);
  }
  return {
    kind: 'api_key',
    accountId: row.account_id,
    environment: row.environment,
    userId: row.user_id,
    userEmail: row.email,
    userName: row.user_name,
    userRole: row.role,
    apiKeyId: row.id,
    apiKey: { id: row.id, name: row.name, permission: row.permission, expiresAt: row.expires_at },
    oauthClientId: null,
    canWrite: row.permission === 'full',
  };
}

/** Authentication rule 6 of the specification, in one place for every adapter. */
export async function authenticateApiKey(
  db: Executor,
  authorization: string | undefined,
  now: Date,
): Promise<Actor> {
  const row = await keyRowQuery(db, bearerToken(authorization)).executeTakeFirst();
  const actor = keyActor(row, now);
  if (!row!.last_used_at || now.getTime() - row!.last_used_at.getTime() > LAST_USED_PRECISION_MS) {
    await db.updateTable('api_keys').set({ last_used_at: now }).where('id', '=', row!.id).execute();
  }
  return actor;
}

/**
 * The key row (as keyRowQuery reads it) and, only when the key is usable, its rate-limit window
 * counted and `last_used_at` refreshed, in one statement. It runs on every API request, so it is
 * written once as SQL text and sent as it is (no query builder work per request).
 * $1 key hash, $2 now, $3 the window's start, $4 `last_used_at` older than this is refreshed,
 * $5 how many calls the request makes (each call of a batch counts).
 */
const KEY_AND_WINDOW_SQL = preparedSql(
  'esign_key_and_window',
  `with k as (
  select api_keys.id, api_keys.name, api_keys.environment, api_keys.permission, api_keys.expires_at,
    api_keys.revoked_at, api_keys.last_used_at, api_keys.account_id, users.id as user_id,
    users.email, users.name as user_name, users.role, accounts.archived_at
  from api_keys
  join users on users.id = api_keys.user_id
  join accounts on accounts.id = api_keys.account_id
  where api_keys.key_hash = $1
), usable as (
  select id, last_used_at from k
  where revoked_at is null and archived_at is null and (expires_at is null or expires_at > $2)
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
 * Rule 6 and the key's rate-limit window in one statement (one round trip per request): the key
 * row is read, and only when the key is usable (not revoked, account not archived, not expired)
 * the shared fixed window `api_key:<id>` is counted and `last_used_at` refreshed. Nothing is cached,
 * so a revocation holds for the very next request on every process.
 */
export async function authenticateApiKeyCounted(
  db: Executor,
  authorization: string | undefined,
  now: Date,
  windowStart: Date,
  calls = 1,
): Promise<{ actor: Actor; count: number }> {
  const hash = sha256Hex(bearerToken(authorization));
  const stale = new Date(now.getTime() - LAST_USED_PRECISION_MS);
  const { rows } = await db.executeQuery<KeyRow & { window_count: number | null }>(
    CompiledQuery.raw(KEY_AND_WINDOW_SQL, [hash, now, windowStart, stale, calls]),
  );
  const row = rows[0];
  const actor = keyActor(row, now);
  return { actor, count: row?.window_count ?? 0 };
}
