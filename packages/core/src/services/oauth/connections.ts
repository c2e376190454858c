import type { Executor } from '@esign/db';
import { sql } from 'kysely';
import { CoreError } from '../../errors.ts';
import { revokeGrantRecords } from './store.ts';

export interface ConnectedAppDto {
  client_id: string;
  name: string;
  /** Where the app is sent back after approval (its registered redirect addresses). */
  redirect_uris: string[];
  /** `full` (Full access) or `read` (View only): the widest access of its live connections. */
  access: 'full' | 'read';
  connected_at: string;
  expires_at: string | null;
}

/**
 * The apps a user connected with OAuth (one entry per app, however many times they approved it):
 * each live grant of theirs, with the client's name and addresses.
 */
export async function listConnectedApps(db: Executor, userId: number, now: Date): Promise<ConnectedAppDto[]> {
  const rows = await db
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
  return rows.map((r) => ({
    client_id: r.client_id ?? '',
    name: r.name ?? r.client_id ?? 'Unknown app',
    redirect_uris: (r.redirect_uris as string[] | null) ?? [],
    access: r.full ? 'full' : 'read',
    connected_at: new Date(r.connected_at).toISOString(),
    expires_at: r.expires_at ? new Date(r.expires_at).toISOString() : null,
  }));
}

async function userGrantIds(db: Executor, userId: number, clientId: string | null): Promise<string[]> {
  let q = db
    .selectFrom('oauth_records')
    .select('grant_id')
    .where('model', '=', 'Grant')
    .where('user_id', '=', userId);
  if (clientId !== null) q = q.where('client_id', '=', clientId);
  const rows = await q.execute();
  return rows.map((r) => r.grant_id!);
}

/**
 * Disconnects an app: every grant the user gave it ends, with every code and token issued under
 * them (the app's next call to /mcp is 401, its refresh token is refused).
 */
export async function revokeConnectedApp(db: Executor, userId: number, clientId: string): Promise<void> {
  const grants = await userGrantIds(db, userId, clientId);
  if (grants.length === 0) throw new CoreError('not_found', `No connected app ${clientId}`);
  await revokeGrantRecords(db, grants);
}

/** Ends every OAuth connection of a user (a removed member). */
export async function revokeUserOAuthGrants(db: Executor, userId: number): Promise<void> {
  await revokeGrantRecords(db, await userGrantIds(db, userId, null));
}
