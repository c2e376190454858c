import type { Executor } from '@esign/db';
import { hitRateLimit } from '../rate-limit.ts';

/**
 * OAuth clients (oauth_clients): those registered at /oauth/register, whose metadata the
 * authorization server reads back, and those known by a client ID metadata document (their id is
 * an https URL, `metadata_url` set), recorded when a user approves them so the dashboard can name
 * them; the authorization server fetches their document itself and never reads them from here.
 */
export type ClientMetadata = Record<string, unknown>;

const nameOf = (metadata: ClientMetadata, id: string) =>
  typeof metadata.client_name === 'string' && metadata.client_name.trim()
    ? metadata.client_name.trim().slice(0, 200)
    : id;

const redirectUrisOf = (metadata: ClientMetadata) =>
  Array.isArray(metadata.redirect_uris) ? metadata.redirect_uris.filter((u) => typeof u === 'string') : [];

export async function saveClient(
  db: Executor,
  id: string,
  metadata: ClientMetadata,
  opts: { metadataUrl: string | null; now: Date },
): Promise<void> {
  const row = {
    name: nameOf(metadata, id),
    redirect_uris: JSON.stringify(redirectUrisOf(metadata)),
    metadata: JSON.stringify(metadata),
    metadata_url: opts.metadataUrl,
    updated_at: opts.now,
  };
  await db
    .insertInto('oauth_clients')
    .values({ id, ...row, created_at: opts.now })
    .onConflict((oc) => oc.column('id').doUpdateSet(row))
    .execute();
}

/** A registered client's metadata (clients known by a metadata document are not answered here). */
export async function findRegisteredClient(db: Executor, id: string): Promise<ClientMetadata | undefined> {
  const row = await db
    .selectFrom('oauth_clients')
    .select('metadata')
    .where('id', '=', id)
    .where('metadata_url', 'is', null)
    .executeTakeFirst();
  return row?.metadata;
}

export async function deleteClient(db: Executor, id: string): Promise<void> {
  await db.deleteFrom('oauth_clients').where('id', '=', id).where('metadata_url', 'is', null).execute();
}

/** Dynamic registration is open (MCP clients register themselves); this many per address per minute. */
export const CLIENT_REGISTRATIONS_PER_MINUTE = 30;

/**
 * The limit on /oauth/register: a fixed one-minute window per client address, shared by every
 * process (rate_limit_windows). Null when the registration may go ahead, else the seconds to wait.
 */
export async function limitClientRegistration(db: Executor, ip: string, now: Date): Promise<number | null> {
  const result = await hitRateLimit(db, `oauth_register:${ip}`, CLIENT_REGISTRATIONS_PER_MINUTE, now);
  return result.limited ? result.resetSeconds : null;
}
