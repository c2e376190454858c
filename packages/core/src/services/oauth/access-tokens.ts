import type { Executor } from '@esign/db';
import { findUserStanding } from '@esign/db/queries/users';
import type { Actor } from '../../context.ts';
import { CoreError } from '../../errors.ts';
import { mcpResource, parseOAuthSubject } from './rules.ts';
import { findRecord } from './store.ts';

/** Why a bearer token is refused; the MCP adapter turns it into `WWW-Authenticate: ... error="invalid_token"`. */
const INVALID = 'Invalid, expired or revoked access token: sign in again (OAuth) or send an API key';

function bearer(authorization: string | undefined): string | null {
  const match = /^Bearer\s+([A-Za-z0-9._~+/-]+=*)\s*$/i.exec(authorization ?? '');
  return match?.[1] ?? null;
}

function audiences(payload: Record<string, unknown>): string[] {
  const aud = payload.aud;
  if (typeof aud === 'string') return [aud];
  return Array.isArray(aud) ? aud.filter((a): a is string => typeof a === 'string') : [];
}

/**
 * Authentication rule 8: an OAuth access token (opaque, issued by the authorization server at
 * /oauth/token) acts as the user who approved it, in that user's account, role and the side of
 * the account they approved from. Refused (401 unauthenticated) when unknown, expired (one hour),
 * revoked (its grant ended), bound to another resource than the MCP endpoint, or when the user was
 * removed or the account archived. `write` scope (Full access) allows changes.
 */
export async function authenticateOAuthToken(
  db: Executor,
  authorization: string | undefined,
  opts: { now: Date; publicUrl: string },
): Promise<Actor> {
  const { now, publicUrl } = opts;
  const token = bearer(authorization);
  const payload = token ? await findRecord(db, 'AccessToken', { id: token, now }) : undefined;
  if (!payload || typeof payload.grantId !== 'string') throw new CoreError('unauthenticated', INVALID);
  if (!audiences(payload).includes(mcpResource(publicUrl))) {
    throw new CoreError('unauthenticated', `This access token is not for ${mcpResource(publicUrl)}`);
  }
  const grant = await findRecord(db, 'Grant', { id: payload.grantId, now });
  const subject = parseOAuthSubject(payload.accountId);
  if (!grant || !subject || grant.accountId !== payload.accountId) {
    throw new CoreError('unauthenticated', INVALID);
  }
  const user = await findUserStanding(db, subject.userId);
  if (!user || user.disabled_at) throw new CoreError('unauthenticated', INVALID);
  if (user.archived_at) throw new CoreError('unauthenticated', 'The account of this connection is archived');
  const scopes = String(payload.scope ?? '').split(' ');
  return {
    kind: 'oauth',
    accountId: user.account_id,
    environment: subject.environment,
    userId: user.id,
    userEmail: user.email,
    userName: user.name,
    userRole: user.role,
    apiKeyId: null,
    apiKey: null,
    oauthClientId: String(payload.clientId),
    canWrite: scopes.includes('write'),
  };
}
