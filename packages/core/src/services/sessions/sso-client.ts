import type { AccountSsoRow } from '@esign/db/queries/sso';
import { guardedFetch } from '@esign/webhooks';
import * as oidc from 'openid-client';
import type { Config } from '../../config.ts';
import type { CoreDeps } from '../../context.ts';
import { openSecret, sealSecret } from '../sealed-secrets.ts';

// The OpenID Connect relying party (issue 45 item 4) is openid-client, a certified library: it
// reads the provider's discovery document (whose `issuer` must be the configured one), builds the
// authorization URL, redeems the code with PKCE and checks the ID token (signature, issuer,
// audience, expiry, nonce). Its HTTP goes through the project's outbound guard.

const FETCH_TIMEOUT_MS = 10_000;
const MAX_RESPONSE_BYTES = 512 * 1024;

/** The client secret at rest: AES-256-GCM under the server secret, bound to its account. */
export const sealClientSecret = (config: Config, accountId: number, secret: string) =>
  sealSecret(config, { purpose: 'sso-client-secret', aad: `account:${accountId}` }, secret);

export const openClientSecret = (config: Config, accountId: number, sealed: string) =>
  openSecret(config, { purpose: 'sso-client-secret', aad: `account:${accountId}` }, sealed);

/** The PKCE verifier of a sign-in sent to the provider, sealed and bound to its state. */
export const sealVerifier = (config: Config, stateHash: string, verifier: string) =>
  sealSecret(config, { purpose: 'sso-pkce', aad: stateHash }, verifier);

export const openVerifier = (config: Config, stateHash: string, sealed: string) =>
  openSecret(config, { purpose: 'sso-pkce', aad: stateHash }, sealed);

export const ssoRedirectUri = (config: Pick<Config, 'PUBLIC_URL'>) => `${config.PUBLIC_URL}/sso/callback`;

/**
 * openid-client's fetch through guardedFetch: https only, public addresses unless the operator
 * allows private ones (SSO_ALLOW_PRIVATE, an identity provider on the company network); the
 * tests' loopback provider is plain http, allowed only through CoreDeps.outbound (test-only).
 */
function ssoFetch(config: Config, deps: CoreDeps): oidc.CustomFetch {
  const testing = deps.outbound?.allowPrivate === true;
  return async (url, options) => {
    const headers: Record<string, string> = {};
    new Headers(options.headers).forEach((value, name) => {
      if (name !== 'user-agent') headers[name] = value;
    });
    const body = options.body;
    const result = await guardedFetch(url, {
      method: options.method ?? 'GET',
      headers,
      ...(typeof body === 'string'
        ? { body }
        : body instanceof URLSearchParams
          ? { body: body.toString() }
          : {}),
      timeoutMs: FETCH_TIMEOUT_MS,
      maxBytes: MAX_RESPONSE_BYTES,
      maxRedirects: 0,
      allowedProtocols: testing ? ['https:', 'http:'] : ['https:'],
      allowPrivate: testing || config.SSO_ALLOW_PRIVATE,
      ...(deps.outbound?.ca ? { ca: deps.outbound.ca } : {}),
      ...(deps.outbound?.lookup ? { lookup: deps.outbound.lookup } : {}),
    });
    return new Response(result.status === 204 ? null : Buffer.from(result.body), {
      status: result.status,
      headers: result.headers,
    });
  };
}

const configs = new Map<string, { at: number; config: Promise<oidc.Configuration> }>();
const CONFIG_TTL_MS = 5 * 60_000;

/** The provider's configuration from its discovery document (kept 5 minutes per account settings). */
export function providerConfig(
  ctx: { config: Config; deps: CoreDeps },
  sso: Pick<AccountSsoRow, 'account_id' | 'issuer' | 'client_id' | 'client_secret_sealed'>,
): Promise<oidc.Configuration> {
  const key = `${sso.account_id}|${sso.issuer}|${sso.client_id}|${sso.client_secret_sealed}`;
  const cached = configs.get(key);
  if (cached && Date.now() - cached.at < CONFIG_TTL_MS) return cached.config;
  const secret = openClientSecret(ctx.config, sso.account_id, sso.client_secret_sealed);
  const config = discover(ctx, { issuer: sso.issuer, clientId: sso.client_id, secret });
  configs.set(key, { at: Date.now(), config });
  config.catch(() => configs.delete(key));
  return config;
}

/** Reads the discovery document: openid-client refuses one whose `issuer` is not `issuer`. */
export function discover(
  ctx: { config: Config; deps: CoreDeps },
  values: { issuer: string; clientId: string; secret: string },
): Promise<oidc.Configuration> {
  const testing = ctx.deps.outbound?.allowPrivate === true;
  return oidc.discovery(
    new URL(values.issuer),
    values.clientId,
    { redirect_uris: [ssoRedirectUri(ctx.config)], response_types: ['code'] },
    oidc.ClientSecretBasic(values.secret),
    {
      [oidc.customFetch]: ssoFetch(ctx.config, ctx.deps),
      timeout: FETCH_TIMEOUT_MS / 1000,
      ...(testing ? { execute: [oidc.allowInsecureRequests] } : {}),
    },
  );
}

export { oidc };
