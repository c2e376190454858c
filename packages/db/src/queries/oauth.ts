import { sql } from 'kysely';
import type { Executor } from '../connection.ts';

// The OAuth authorization server's storage: `oauth_records` (oidc-provider's models, one row per
// model and SHA-256 of the id: hashing is the caller's) and `oauth_clients`.

export interface OAuthRecordValues {
  payload: Record<string, unknown>;
  grantId: string | null;
  clientId: string | null;
  userId: number | null;
  uid: string | null;
  userCode: string | null;
  expiresAt: Date | null;
}

/** Inserts the record or replaces the one of the same model and id hash. */
export async function upsertOAuthRecord(
  db: Executor,
  key: { model: string; idHash: string },
  opts: { values: OAuthRecordValues; now: Date },
): Promise<void> {
  const v = opts.values;
  const row = {
    payload: JSON.stringify(v.payload),
    grant_id: v.grantId,
    client_id: v.clientId,
    user_id: v.userId,
    uid: v.uid,
    user_code: v.userCode,
    expires_at: v.expiresAt,
  };
  await db
    .insertInto('oauth_records')
    .values({ model: key.model, id_hash: key.idHash, ...row, created_at: opts.now })
    .onConflict((oc) => oc.columns(['model', 'id_hash']).doUpdateSet(row))
    .execute();
}

/** Moves a grant's expiry to `expiresAt` when that is later. */
export async function extendGrantExpiry(db: Executor, grantId: string, expiresAt: Date): Promise<void> {
  await db
    .updateTable('oauth_records')
    .set({ expires_at: sql`greatest(expires_at, ${expiresAt})` })
    .where('model', '=', 'Grant')
    .where('grant_id', '=', grantId)
    .execute();
}

export interface OAuthRecordRow {
  payload: Record<string, unknown>;
  consumed_at: Date | null;
  expires_at: Date | null;
}

/** One record of a model by a unique column (its id's hash, a session's uid, a device user code). */
export async function findOAuthRecord(
  db: Executor,
  model: string,
  by: { column: 'id_hash' | 'uid' | 'user_code'; value: string },
): Promise<OAuthRecordRow | undefined> {
  return db
    .selectFrom('oauth_records')
    .select(['payload', 'consumed_at', 'expires_at'])
    .where('model', '=', model)
    .where(by.column, '=', by.value)
    .executeTakeFirst();
}

/** Marks a record used if it is not yet; true for exactly one of concurrent callers. */
export async function consumeOAuthRecord(
  db: Executor,
  key: { model: string; idHash: string },
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('oauth_records')
    .set({ consumed_at: now })
    .where('model', '=', key.model)
    .where('id_hash', '=', key.idHash)
    .where('consumed_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function deleteOAuthRecord(db: Executor, key: { model: string; idHash: string }): Promise<void> {
  await db
    .deleteFrom('oauth_records')
    .where('model', '=', key.model)
    .where('id_hash', '=', key.idHash)
    .execute();
}

/** Deletes every record issued under these grants, the grants included. */
export async function deleteGrantRecords(db: Executor, grantIds: readonly string[]): Promise<void> {
  await db.deleteFrom('oauth_records').where('grant_id', 'in', grantIds).execute();
}

/** Deletes the records expired at `now`; returns how many. */
export async function deleteExpiredOAuthRecords(db: Executor, now: Date): Promise<number> {
  const result = await db.deleteFrom('oauth_records').where('expires_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The ids of a user's grants (all, or those of one client). */
export async function listUserGrantIds(
  db: Executor,
  userId: number,
  opts: { clientId: string | null },
): Promise<string[]> {
  let q = db
    .selectFrom('oauth_records')
    .select('grant_id')
    .where('model', '=', 'Grant')
    .where('user_id', '=', userId);
  if (opts.clientId !== null) q = q.where('client_id', '=', opts.clientId);
  const rows = await q.execute();
  return rows.map((r) => r.grant_id!);
}

/** One connected app of a user: their live grants to one client, grouped. */
export interface ConnectedAppRow {
  client_id: string | null;
  name: string | null;
  redirect_uris: string[] | null;
  /** `write` among the scopes granted on any resource of any of the grants. */
  full: boolean;
  connected_at: Date;
  expires_at: Date | null;
}

/** The user's grants unexpired at `now`, one row per client, most recently connected first. */
export async function listConnectedAppRows(
  db: Executor,
  userId: number,
  now: Date,
): Promise<ConnectedAppRow[]> {
  return db
    .selectFrom('oauth_records as g')
    .leftJoin('oauth_clients as c', 'c.id', 'g.client_id')
    .select([
      'g.client_id',
      'c.name',
      'c.redirect_uris',
      // Full access: `write` among the scopes granted on any resource (Grant payload `resources`).
      sql<boolean>`bool_or(g.payload->'resources' @? '$.* ? (@ like_regex "(^| )write( |$)")')`.as('full'),
      sql<Date>`min(g.created_at)`.as('connected_at'),
      sql<Date | null>`max(g.expires_at)`.as('expires_at'),
    ])
    .where('g.model', '=', 'Grant')
    .where('g.user_id', '=', userId)
    .where((eb) => eb.or([eb('g.expires_at', 'is', null), eb('g.expires_at', '>', now)]))
    .groupBy(['g.client_id', 'c.name', 'c.redirect_uris'])
    .orderBy('connected_at', 'desc')
    .execute();
}

export interface OAuthClientValues {
  name: string;
  redirectUris: string[];
  metadata: Record<string, unknown>;
  metadataUrl: string | null;
}

/** Inserts the client or replaces the one with this id. */
export async function upsertOAuthClient(
  db: Executor,
  id: string,
  opts: { values: OAuthClientValues; now: Date },
): Promise<void> {
  const row = {
    name: opts.values.name,
    redirect_uris: JSON.stringify(opts.values.redirectUris),
    metadata: JSON.stringify(opts.values.metadata),
    metadata_url: opts.values.metadataUrl,
    updated_at: opts.now,
  };
  await db
    .insertInto('oauth_clients')
    .values({ id, ...row, created_at: opts.now })
    .onConflict((oc) => oc.column('id').doUpdateSet(row))
    .execute();
}

/** A client registered at /oauth/register (not one known by a metadata document): its metadata. */
export async function findRegisteredClientMetadata(
  db: Executor,
  id: string,
): Promise<Record<string, unknown> | undefined> {
  const row = await db
    .selectFrom('oauth_clients')
    .select('metadata')
    .where('id', '=', id)
    .where('metadata_url', 'is', null)
    .executeTakeFirst();
  return row?.metadata;
}

export async function deleteRegisteredClient(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('oauth_clients').where('id', '=', id).where('metadata_url', 'is', null).execute();
}

/**
 * Deletes registered clients not set apart by the operator, unchanged since `before`, with no
 * record stored for them; returns how many.
 */
export async function deleteUnusedRegisteredClients(db: Executor, before: Date): Promise<number> {
  const result = await db
    .deleteFrom('oauth_clients as c')
    .where('c.metadata_url', 'is', null)
    .where('c.purchases_hidden', '=', false)
    .where('c.updated_at', '<', before)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('oauth_records as r').select('r.model').whereRef('r.client_id', '=', 'c.id'))),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
