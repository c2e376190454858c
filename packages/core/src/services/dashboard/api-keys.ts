import type { Environment, Executor, Permission } from '@esign/db';
import type { Actor } from '../../context.ts';
import { CoreError } from '../../errors.ts';
import { type IssuedKey, issueApiKey, revokeApiKey } from '../api-keys.ts';

export interface ApiKeyDto {
  id: number;
  name: string;
  /** The first characters of the key, enough to recognise it (`svc_live_AbC1234`). */
  prefix: string;
  environment: Environment;
  permission: Permission;
  user: { id: number; email: string };
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

/** Every key of the account (both sides), newest first; secrets are never readable again. */
export async function listAccountApiKeys(db: Executor, accountId: number): Promise<ApiKeyDto[]> {
  const rows = await db
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
    .limit(500)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    prefix: r.key_prefix,
    environment: r.environment,
    permission: r.permission,
    user: { id: r.user_id, email: r.email },
    expires_at: r.expires_at?.toISOString() ?? null,
    last_used_at: r.last_used_at?.toISOString() ?? null,
    revoked_at: r.revoked_at?.toISOString() ?? null,
    created_at: r.created_at.toISOString(),
  }));
}

/** A key for the signed-in user; it acts with that user's role (a viewer's key changes nothing). */
export async function createAccountApiKey(
  db: Executor,
  actor: Actor,
  input: {
    environment: Environment;
    permission: Permission;
    name?: string | undefined;
    expires_at?: string | null | undefined;
  },
  now: Date,
): Promise<IssuedKey> {
  const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
  if (expiresAt && expiresAt <= now) {
    throw new CoreError(
      'invalid_parameter',
      'Invalid value for expires_at: the expiry must be in the future',
    );
  }
  return issueApiKey(db, {
    userId: actor.userId,
    environment: input.environment,
    permission: input.permission,
    ...(input.name ? { name: input.name } : {}),
    expiresAt,
  });
}

/** Revokes a key of the account; another account's key is not found. */
export async function revokeAccountApiKey(
  db: Executor,
  accountId: number,
  id: number,
  now: Date,
): Promise<{ id: number; revoked_at: string }> {
  const owned = await db
    .selectFrom('api_keys')
    .select('id')
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  if (!owned) throw new CoreError('not_found', `API key ${id} was not found`);
  return revokeApiKey(db, id, now);
}
