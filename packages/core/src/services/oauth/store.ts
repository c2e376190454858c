import type { Executor } from '@esign/db';
import { sql } from 'kysely';
import { sha256Hex } from '../../crypto.ts';
import { parseOAuthSubject } from './rules.ts';

/**
 * The authorization server's storage (oidc-provider's adapter contract) over `oauth_records`: one
 * row per model and id, keyed by the SHA-256 of the id, so a token found in a database dump is no
 * token at all. The id itself is never written: `jti` is dropped from the payload and given back by
 * `findRecord`, which is asked for it by id (oidc-provider's own cookie sessions excepted, which it
 * finds by uid). Expired rows are not found (by the caller's clock).
 */
export type OAuthPayload = Record<string, unknown>;

const hashId = (id: string) => sha256Hex(id);

function userIdOf(payload: OAuthPayload): number | null {
  return parseOAuthSubject(payload.accountId)?.userId ?? null;
}

const str = (v: unknown) => (typeof v === 'string' ? v : null);

export async function upsertRecord(
  db: Executor,
  model: string,
  id: string,
  payload: OAuthPayload,
  expiresInSeconds: number | undefined,
  now: Date,
): Promise<void> {
  // oidc-provider finds its (cookie) sessions by uid and needs their id back: the one model that
  // keeps it. Every token, code and grant is stored without it.
  const { jti: _jti, ...withoutId } = payload;
  const stored = model === 'Session' ? payload : withoutId;
  const expiresAt = expiresInSeconds ? new Date(now.getTime() + expiresInSeconds * 1000) : null;
  const row = {
    payload: JSON.stringify(stored),
    // A grant names itself, so one `grant_id` finds a connection and everything issued under it.
    grant_id: model === 'Grant' ? id : str(payload.grantId),
    client_id: str(payload.clientId),
    user_id: userIdOf(payload),
    uid: str(payload.uid),
    user_code: str(payload.userCode),
    expires_at: expiresAt,
  };
  await db
    .insertInto('oauth_records')
    .values({ model, id_hash: hashId(id), ...row, created_at: now })
    .onConflict((oc) => oc.columns(['model', 'id_hash']).doUpdateSet(row))
    .execute();
  // A connection lives as long as its newest refresh token: each rotation extends its grant.
  if (model === 'RefreshToken' && expiresAt && row.grant_id) {
    await db
      .updateTable('oauth_records')
      .set({ expires_at: sql`greatest(expires_at, ${expiresAt})` })
      .where('model', '=', 'Grant')
      .where('grant_id', '=', row.grant_id)
      .execute();
  }
}

type Found = { payload: OAuthPayload; consumed_at: Date | null; expires_at: Date | null };

function present(id: string, row: Found | undefined, now: Date): OAuthPayload | undefined {
  if (!row) return undefined;
  if (row.expires_at && row.expires_at <= now) return undefined;
  const payload: OAuthPayload = { ...row.payload };
  if (id) payload.jti = id;
  if (row.consumed_at) payload.consumed = Math.floor(row.consumed_at.getTime() / 1000);
  return payload;
}

/** One record of a model by a unique column (its id's hash, a session's uid, a device user code). */
function selectRecord(db: Executor, model: string, column: 'id_hash' | 'uid' | 'user_code', value: string) {
  return db
    .selectFrom('oauth_records')
    .select(['payload', 'consumed_at', 'expires_at'])
    .where('model', '=', model)
    .where(column, '=', value)
    .executeTakeFirst();
}

export async function findRecord(
  db: Executor,
  model: string,
  id: string,
  now: Date,
): Promise<OAuthPayload | undefined> {
  return present(id, await selectRecord(db, model, 'id_hash', hashId(id)), now);
}

/** Sessions looked up by their uid (oidc-provider's cookie sessions, which keep their id in the payload). */
export async function findRecordBy(
  db: Executor,
  model: string,
  column: 'uid' | 'user_code',
  value: string,
  now: Date,
): Promise<OAuthPayload | undefined> {
  const row = await selectRecord(db, model, column, value);
  return row ? present(String(row.payload.jti ?? ''), row, now) : undefined;
}

/**
 * Marks a record used (an authorization code exchanged, a refresh token rotated). Atomic: of two
 * concurrent uses exactly one gets true; the other must not issue anything.
 */
export async function consumeRecord(db: Executor, model: string, id: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('oauth_records')
    .set({ consumed_at: now })
    .where('model', '=', model)
    .where('id_hash', '=', hashId(id))
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function destroyRecord(db: Executor, model: string, id: string): Promise<void> {
  await db.deleteFrom('oauth_records').where('model', '=', model).where('id_hash', '=', hashId(id)).execute();
}

/** Ends connections: each grant and every code and token issued under it. */
export async function revokeGrantRecords(db: Executor, grantIds: readonly string[]): Promise<void> {
  if (grantIds.length === 0) return;
  await db.deleteFrom('oauth_records').where('grant_id', 'in', grantIds).execute();
}

/** Drops records past their expiry (run by the worker's housekeeping). */
export async function pruneOAuthRecords(db: Executor, now: Date): Promise<number> {
  const result = await db.deleteFrom('oauth_records').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
