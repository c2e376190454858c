import type { Executor, Tx } from '@esign/db';
import {
  consumeOAuthRecord,
  deleteExpiredOAuthRecords,
  deleteGrantRecords,
  deleteOAuthRecord,
  extendGrantExpiry,
  findOAuthRecord,
  type OAuthRecordRow,
  upsertOAuthRecord,
} from '@esign/db/queries/oauth';
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
  tx: Tx,
  model: string,
  {
    id,
    payload,
    expiresInSeconds,
    now,
  }: { id: string; payload: OAuthPayload; expiresInSeconds: number | undefined; now: Date },
): Promise<void> {
  // oidc-provider finds its (cookie) sessions by uid and needs their id back: the one model that
  // keeps it. Every token, code and grant is stored without it.
  const { jti: _jti, ...withoutId } = payload;
  const stored = model === 'Session' ? payload : withoutId;
  const expiresAt = expiresInSeconds ? new Date(now.getTime() + expiresInSeconds * 1000) : null;
  // A grant names itself, so one `grant_id` finds a connection and everything issued under it.
  const grantId = model === 'Grant' ? id : str(payload.grantId);
  await upsertOAuthRecord(
    tx,
    { model, idHash: hashId(id) },
    {
      values: {
        payload: stored,
        grantId,
        clientId: str(payload.clientId),
        userId: userIdOf(payload),
        uid: str(payload.uid),
        userCode: str(payload.userCode),
        expiresAt,
      },
      now,
    },
  );
  // A connection lives as long as its newest refresh token: each rotation extends its grant.
  if (model === 'RefreshToken' && expiresAt && grantId) await extendGrantExpiry(tx, grantId, expiresAt);
}

function present(id: string, row: OAuthRecordRow | undefined, now: Date): OAuthPayload | undefined {
  if (!row) return undefined;
  if (row.expires_at && row.expires_at <= now) return undefined;
  const payload: OAuthPayload = { ...row.payload };
  if (id) payload.jti = id;
  if (row.consumed_at) payload.consumed = Math.floor(row.consumed_at.getTime() / 1000);
  return payload;
}

export async function findRecord(
  db: Executor,
  model: string,
  { id, now }: { id: string; now: Date },
): Promise<OAuthPayload | undefined> {
  return present(id, await findOAuthRecord(db, model, { column: 'id_hash', value: hashId(id) }), now);
}

/** Sessions looked up by their uid (oidc-provider's cookie sessions, which keep their id in the payload). */
export async function findRecordBy(
  db: Executor,
  model: string,
  by: { column: 'uid' | 'user_code'; value: string; now: Date },
): Promise<OAuthPayload | undefined> {
  const row = await findOAuthRecord(db, model, by);
  return row ? present(String(row.payload.jti ?? ''), row, by.now) : undefined;
}

/**
 * Marks a record used (an authorization code exchanged, a refresh token rotated). Atomic: of two
 * concurrent uses exactly one gets true; the other must not issue anything.
 */
export async function consumeRecord(
  db: Executor,
  model: string,
  { id, now }: { id: string; now: Date },
): Promise<boolean> {
  return consumeOAuthRecord(db, { model, idHash: hashId(id) }, now);
}

export async function destroyRecord(db: Executor, model: string, id: string): Promise<void> {
  await deleteOAuthRecord(db, { model, idHash: hashId(id) });
}

/** Ends connections: each grant and every code and token issued under it. */
export async function revokeGrantRecords(db: Executor, grantIds: readonly string[]): Promise<void> {
  if (grantIds.length === 0) return;
  await deleteGrantRecords(db, grantIds);
}

/** Drops records past their expiry (run by the worker's housekeeping). */
export async function pruneOAuthRecords(db: Executor, now: Date): Promise<number> {
  return deleteExpiredOAuthRecords(db, now);
}
