import type { Executor } from '@esign/db';
import {
  deleteRegisteredClient,
  deleteUnusedRegisteredClients,
  findRegisteredClientMetadata,
  upsertOAuthClient,
} from '@esign/db/queries/oauth';
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
  opts: { metadata: ClientMetadata; metadataUrl: string | null; now: Date },
): Promise<void> {
  const { metadata } = opts;
  await upsertOAuthClient(db, id, {
    values: {
      name: nameOf(metadata, id),
      redirectUris: redirectUrisOf(metadata),
      metadata,
      metadataUrl: opts.metadataUrl,
    },
    now: opts.now,
  });
}

/** A registered client's metadata (clients known by a metadata document are not answered here). */
export async function findRegisteredClient(db: Executor, id: string): Promise<ClientMetadata | undefined> {
  return findRegisteredClientMetadata(db, id);
}

/** How long a registered client may go without any connection, code or token before it is removed. */
export const UNUSED_CLIENT_HOURS = 24;

/**
 * Removes clients registered at /oauth/register (open to anyone, 30 a minute per address) that
 * have had nothing stored for them (no consent in progress, code, token or connection) for
 * UNUSED_CLIENT_HOURS: registrations that never connected, and those whose every connection ended
 * or expired. An assistant whose client is gone registers again (MCP clients do on
 * `invalid_client`). Clients an operator set apart (`esign purchases hide`) are kept. Run by the
 * worker's housekeeping; returns how many were removed.
 */
export async function pruneUnusedOAuthClients(db: Executor, now: Date): Promise<number> {
  const before = new Date(now.getTime() - UNUSED_CLIENT_HOURS * 3_600_000);
  return deleteUnusedRegisteredClients(db, before);
}

export async function deleteClient(db: Executor, id: string): Promise<void> {
  await deleteRegisteredClient(db, id);
}

/** Dynamic registration is open (MCP clients register themselves); this many per address per minute. */
const CLIENT_REGISTRATIONS_PER_MINUTE = 30;

/**
 * The limit on /oauth/register: a fixed one-minute window per client address, shared by every
 * process (rate_limit_windows). Null when the registration may go ahead, else the seconds to wait.
 */
export async function limitClientRegistration(db: Executor, ip: string, now: Date): Promise<number | null> {
  const result = await hitRateLimit(db, `oauth_register:${ip}`, {
    limit: CLIENT_REGISTRATIONS_PER_MINUTE,
    now,
  });
  return result.limited ? result.resetSeconds : null;
}
