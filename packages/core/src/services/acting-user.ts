import type { Executor, Scope } from '@esign/db';
import { findUserById } from '@esign/db/queries/users';
import type { Actor } from '../context.ts';

/**
 * The actor of work done later on a user's behalf (a bulk send's rows, a public link's visits):
 * the user who started it, with the API key they used, if any, so `created_by` and the audit trail
 * name them.
 */
export async function actingUser(
  db: Executor,
  scope: Scope,
  by: { userId: number; apiKeyId?: number | null },
): Promise<Actor> {
  const apiKeyId = by.apiKeyId ?? null;
  const user = await findUserById(db, by.userId);
  if (!user) throw new Error(`User ${by.userId} was not found`);
  return {
    kind: apiKeyId ? 'api_key' : 'session',
    accountId: scope.accountId,
    environment: scope.environment,
    userId: user.id,
    userEmail: user.email,
    userName: user.name,
    userRole: user.role,
    apiKeyId,
    apiKey: null,
    oauthClientId: null,
    canWrite: true,
  };
}
