import type { Environment, Executor, Permission } from '@esign/db';
import { type ApiKeyListRow, accountHasApiKey, listApiKeysOfAccount } from '@esign/db/queries/api-keys';
import type { Actor } from '../../context.ts';
import { CoreError } from '../../errors.ts';
import { type IssuedKey, issueApiKey, revokeApiKey } from '../api-keys.ts';
import type { ServiceContext } from '../service-context.ts';

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
  const rows = await listApiKeysOfAccount(db, accountId, { limit: 500 });
  return rows.map(toApiKeyDto);
}

const toApiKeyDto = (r: ApiKeyListRow): ApiKeyDto => ({
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
});

/** A key for the signed-in user; it acts with that user's role (a viewer's key changes nothing). */
export async function createAccountApiKey(
  sc: ServiceContext,
  actor: Actor,
  input: {
    environment: Environment;
    permission: Permission;
    name?: string | undefined;
    expires_at?: string | null | undefined;
  },
): Promise<IssuedKey> {
  const now = sc.now();
  const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
  if (expiresAt && expiresAt <= now) {
    throw new CoreError(
      'invalid_parameter',
      'Invalid value for expires_at: the expiry must be in the future',
    );
  }
  return issueApiKey(sc.db, {
    userId: actor.userId,
    environment: input.environment,
    permission: input.permission,
    ...(input.name ? { name: input.name } : {}),
    expiresAt,
  });
}

/** Revokes a key of the account; another account's key is not found. */
export async function revokeAccountApiKey(
  sc: ServiceContext,
  actor: Actor,
  id: number,
): Promise<{ id: number; revoked_at: string }> {
  if (!(await accountHasApiKey(sc.db, actor.accountId, id))) {
    throw new CoreError('not_found', `API key ${id} was not found`);
  }
  return revokeApiKey(sc.db, id, sc.now());
}
