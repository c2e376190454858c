import type { Environment, Executor, Permission } from '@esign/db';
import {
  type ApiKeyAuthRow,
  type ApiKeyRefusal,
  findApiKeyAndCountWindow,
  findApiKeyByHash,
  insertApiKey,
  revokeApiKeyRow,
  touchApiKey,
} from '@esign/db/queries/api-keys';
import { findUserStanding } from '@esign/db/queries/users';
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
  const user = await findUserStanding(db, input.userId);
  if (!user) throw new CoreError('not_found', `User ${input.userId} was not found`);
  if (user.archived_at) throw new CoreError('invalid_request', 'The account is archived');
  const key = `svc_${input.environment}_${randomToken(32)}`;
  const row = await insertApiKey(db, {
    accountId: user.account_id,
    userId: user.id,
    environment: input.environment,
    permission: input.permission,
    name: input.name ?? 'Default key',
    keyHash: sha256Hex(key),
    keyPrefix: key.slice(0, 16),
    expiresAt: input.expiresAt ?? null,
  });
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
  const row = await revokeApiKeyRow(db, id, now);
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

/** `last_used_at` is written at most once a minute per key. */
const LAST_USED_PRECISION_MS = 60_000;

/**
 * The actor of a key row, or the rule-6 error. Whether the key can be used is decided once, by the
 * statement that read it (`refusal`, apiKeyRefusalSql in @esign/db); here each reason gets its
 * error, and the key's permission its write right (`canWrite`, enforced by the procedures).
 */
function keyActor(row: ApiKeyAuthRow | undefined, now: Date): Actor {
  if (!row) throw new CoreError('unauthenticated', 'Invalid or revoked API key');
  if (row.refusal) throw refusalError(row.refusal, row.expires_at ?? now);
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

/** The error of each reason a key cannot be used (authentication rule 6). */
function refusalError(refusal: ApiKeyRefusal, expiredAt: Date): CoreError {
  switch (refusal) {
    case 'revoked':
      return new CoreError('unauthenticated', 'Invalid or revoked API key');
    case 'account_archived':
      return new CoreError('unauthenticated', 'The account of this API key is archived');
    case 'expired':
      return new CoreError('api_key_expired', `This API key expired at ${expiredAt.toISOString()}`);
    default:
      return refusal satisfies never;
  }
}

/** Authentication rule 6 of the specification, in one place for every adapter. */
export async function authenticateApiKey(
  db: Executor,
  authorization: string | undefined,
  now: Date,
): Promise<Actor> {
  const row = await findApiKeyByHash(db, sha256Hex(bearerToken(authorization)), now);
  const actor = keyActor(row, now);
  if (!row!.last_used_at || now.getTime() - row!.last_used_at.getTime() > LAST_USED_PRECISION_MS) {
    await touchApiKey(db, row!.id, now);
  }
  return actor;
}

/**
 * Rule 6 and the key's rate-limit window in one statement (one round trip per request): the key
 * row is read, and only when the key is usable (not revoked, account not archived, not expired)
 * the shared fixed window `api_key:<id>` is counted and `last_used_at` refreshed. Nothing is cached,
 * so a revocation holds for the very next request on every process.
 */
export async function authenticateApiKeyCounted(
  db: Executor,
  authorization: string | undefined,
  opts: { now: Date; windowStart: Date; calls?: number },
): Promise<{ actor: Actor; count: number }> {
  const { now } = opts;
  const row = await findApiKeyAndCountWindow(db, sha256Hex(bearerToken(authorization)), {
    now,
    windowStart: opts.windowStart,
    staleBefore: new Date(now.getTime() - LAST_USED_PRECISION_MS),
    calls: opts.calls ?? 1,
  });
  const actor = keyActor(row, now);
  return { actor, count: row?.window_count ?? 0 };
}
