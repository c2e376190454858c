import type { Environment, Executor } from '@esign/db';
import type { Actor } from '../context.ts';

/**
 * The actor of work done later on a user's behalf (a bulk send's rows, a public link's visits):
 * the user who started it, with the API key they used, if any, so `created_by` and the audit trail
 * name them.
 */
export async function actingUser(
  db: Executor,
  scope: { accountId: number; environment: Environment },
  userId: number,
  apiKeyId: number | null = null,
): Promise<Actor> {
  const user = await db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
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
