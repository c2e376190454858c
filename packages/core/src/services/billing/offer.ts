import type { Executor } from '@esign/db';
import {
  findApiKeyPurchasesHidden,
  findOAuthClientPurchasesHidden,
  setApiKeyPurchasesHidden,
  setOAuthClientPurchasesHidden,
} from '@esign/db/queries/billing';
import type { Actor, Source } from '../../context.ts';
import { CoreError } from '../../errors.ts';

/**
 * The spec's one assistant product that is not offered the credit purchase tools, and whose
 * results omit `purchase_url` and `checkout_url`: an operator marks its client (an API key, or an
 * OAuth client once OAuth lands) with `esign purchases hide`. The setting applies on the MCP
 * endpoint, the only place the spec names it; the REST API keeps its documented shapes.
 */
export async function purchasesOffered(db: Executor, actor: Actor, source: Source): Promise<boolean> {
  if (source !== 'mcp') return true;
  if (actor.apiKeyId !== null) return !(await findApiKeyPurchasesHidden(db, actor.apiKeyId));
  if (actor.oauthClientId !== null) return !(await findOAuthClientPurchasesHidden(db, actor.oauthClientId));
  return true;
}

const PURCHASE_LINKS = new Set(['purchase_url', 'checkout_url']);

/** A result with every `purchase_url` and `checkout_url` left out, at any depth. */
export function omitPurchaseLinks<T>(value: T): T {
  if (Array.isArray(value)) return value.map(omitPurchaseLinks) as T;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([k]) => !PURCHASE_LINKS.has(k))
        .map(([k, v]) => [k, omitPurchaseLinks(v)]),
    ) as T;
  }
  return value;
}

export interface PurchaseSetting {
  client: { type: 'api_key' | 'oauth_client'; id: number | string };
  purchases_offered: boolean;
}

/** `esign purchases hide|offer`: the per-client setting. */
export async function setPurchasesOffered(
  db: Executor,
  client: { apiKeyId?: number; oauthClientId?: string },
  offered: boolean,
): Promise<PurchaseSetting> {
  if ((client.apiKeyId === undefined) === (client.oauthClientId === undefined)) {
    throw new CoreError('invalid_parameter', 'Give exactly one of --key-id or --client-id');
  }
  if (client.apiKeyId !== undefined) {
    const row = await setApiKeyPurchasesHidden(db, client.apiKeyId, !offered);
    if (!row) throw new CoreError('not_found', `API key ${client.apiKeyId} was not found`);
    return { client: { type: 'api_key', id: row.id }, purchases_offered: !row.purchases_hidden };
  }
  const row = await setOAuthClientPurchasesHidden(db, client.oauthClientId!, !offered);
  if (!row) throw new CoreError('not_found', `OAuth client ${client.oauthClientId} was not found`);
  return { client: { type: 'oauth_client', id: row.id }, purchases_offered: !row.purchases_hidden };
}
