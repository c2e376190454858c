import type { Executor } from '@esign/db';
import {
  findRequestSourceBySignerToken,
  listEmbedOrigins,
  replaceEmbedOrigins,
} from '@esign/db/queries/embed-origins';
import type { Config } from '../../config.ts';
import { type Actor, scopeOf } from '../../context.ts';
import { sha256Hex } from '../../crypto.ts';
import { CoreError } from '../../errors.ts';
import { recordAudit } from '../audit.ts';
import type { ServiceContext } from '../service-context.ts';

// Embedded signing (source `embed`): the origins an account lets frame its signing pages. The
// signing page of an embed request carries them as `frame-ancestors`, and posts its events only
// to them.

export const MAX_EMBED_ORIGINS = 20;

/** `https://app.example.com` or `http://localhost:5173`: a scheme, a host, maybe a port; nothing else. */
export function normaliseOrigin(value: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new CoreError('invalid_parameter', `"${value}" is not an origin such as https://app.example.com`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new CoreError('invalid_parameter', `"${value}": an origin starts with https:// or http://`);
  if (url.pathname !== '/' || url.search || url.hash || url.username || url.password)
    throw new CoreError(
      'invalid_parameter',
      `"${value}" is not an origin: give scheme, host and port only (${url.origin})`,
    );
  return url.origin;
}

/** Replaces the account's list (admins, in the dashboard). */
export async function setEmbedOrigins(sc: ServiceContext, actor: Actor, origins: string[]) {
  const list = [...new Set(origins.map(normaliseOrigin))];
  if (list.length > MAX_EMBED_ORIGINS)
    throw new CoreError('invalid_parameter', `At most ${MAX_EMBED_ORIGINS} origins may embed signing pages`);
  const now = sc.now();
  await sc.db.transaction().execute(async (tx) => {
    await replaceEmbedOrigins(tx, actor.accountId, { origins: list, now });
    await recordAudit(tx, scopeOf(actor), {
      type: 'account.embed_origins_updated',
      by: { kind: 'actor', actor },
      data: { origins: list },
      now,
    });
  });
  return { object: 'embed_settings' as const, origins: list, script_url: embedScriptUrl(sc.config) };
}

const embedScriptUrl = (config: Config) => `${config.PUBLIC_URL}/embed/esign-form.js`;

export async function getEmbedSettings(sc: ServiceContext, actor: Actor) {
  return {
    object: 'embed_settings' as const,
    origins: await listEmbedOrigins(sc.db, actor.accountId),
    script_url: embedScriptUrl(sc.config),
  };
}

/**
 * Who may frame the signing page of this token: the account's origins when the token belongs to
 * a request sent with `embed: true`, nobody otherwise (and for an unknown token).
 */
export async function embedFrameOrigins(db: Executor, token: string): Promise<string[]> {
  const row = await findRequestSourceBySignerToken(db, sha256Hex(token));
  if (!row || row.source !== 'embed') return [];
  return listEmbedOrigins(db, row.account_id);
}
