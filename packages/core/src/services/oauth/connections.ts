import type { Executor } from '@esign/db';
import { type ConnectedAppRow, listConnectedAppRows, listUserGrantIds } from '@esign/db/queries/oauth';
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
  const rows = await listConnectedAppRows(db, userId, now);
  return rows.map(toConnectedAppDto);
}

const toConnectedAppDto = (r: ConnectedAppRow): ConnectedAppDto => ({
  client_id: r.client_id ?? '',
  name: r.name ?? r.client_id ?? 'Unknown app',
  redirect_uris: r.redirect_uris ?? [],
  access: r.full ? 'full' : 'read',
  connected_at: new Date(r.connected_at).toISOString(),
  expires_at: r.expires_at ? new Date(r.expires_at).toISOString() : null,
});

/**
 * Disconnects an app: every grant the user gave it ends, with every code and token issued under
 * them (the app's next call to /mcp is 401, its refresh token is refused).
 */
export async function revokeConnectedApp(db: Executor, userId: number, clientId: string): Promise<void> {
  const grants = await listUserGrantIds(db, userId, { clientId });
  if (grants.length === 0) throw new CoreError('not_found', `No connected app ${clientId}`);
  await revokeGrantRecords(db, grants);
}

/** Ends every OAuth connection of a user (a removed member). */
export async function revokeUserOAuthGrants(db: Executor, userId: number): Promise<void> {
  await revokeGrantRecords(db, await listUserGrantIds(db, userId, { clientId: null }));
}
