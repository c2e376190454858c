import type { Config, CoreDeps } from '@esign/core';
import {
  ACCESS_TOKEN_TTL_SECONDS,
  AUTHORIZATION_CODE_TTL_SECONDS,
  guardedClientFetch,
  mcpResource,
  OAUTH_SCOPES,
  parseOAuthSubject,
  REFRESH_TOKEN_TTL_SECONDS,
} from '@esign/core/oauth';
import type { Db } from '@esign/db';
import Provider, { type Configuration, errors, type KoaContextWithOIDC } from 'oidc-provider';
import type { Logger } from 'pino';
import { postgresAdapter } from './adapter.ts';

import { oauthCookieKeys, oauthSigningJwks } from './keys.ts';
import { oauthErrorPage } from './views.ts';

export interface OAuthServerOptions {
  db: Db;
  config: Config;
  logger: Logger;
  deps: CoreDeps;
  now: () => Date;
}

/** The authorization server's endpoints (operations.md §1) and the consent page under /oauth/authorize. */
export const OAUTH_ROUTES = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  registration: '/oauth/register',
  revocation: '/oauth/revoke',
  jwks: '/oauth/jwks',
} as const;
export const CONSENT_PATH = `${OAUTH_ROUTES.authorization}/consent`;

const DAY = 24 * 3600;

/** Resource indicators: the MCP endpoint is the one resource; tokens for anything else are refused. */
function resourceIndicators(resource: string) {
  return {
    enabled: true,
    defaultResource: () => resource,
    useGrantedResource: () => true,
    getResourceServerInfo: (_ctx: KoaContextWithOIDC, indicator: string) => {
      if (indicator !== resource) throw new errors.InvalidTarget(`The only resource here is ${resource}`);
      return {
        scope: OAUTH_SCOPES.join(' '),
        audience: resource,
        accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
        accessTokenFormat: 'opaque' as const,
      };
    },
  };
}

function configuration(opts: OAuthServerOptions): Configuration {
  const resource = mcpResource(opts.config.PUBLIC_URL);
  return {
    adapter: postgresAdapter(opts.db, opts.now),
    clients: [],
    // The subject is `<user id>:<live|test>` (core's oauthSubject); core's token check loads the user.
    findAccount: (_ctx, sub) =>
      parseOAuthSubject(sub) ? { accountId: sub, claims: () => ({ sub }) } : undefined,
    cookies: { keys: oauthCookieKeys(opts.config) },
    jwks: oauthSigningJwks(opts.config),
    enabledJWA: { idTokenSigningAlgValues: ['ES256'] },
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'ES256',
    },
    responseTypes: ['code'],
    // Public clients (PKCE) and clients with a secret from /oauth/register.
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    // `read` and `write` are the MCP resource's scopes; listed here too, so clients may register
    // with them (the consent grants them on the resource and for the client alike).
    scopes: [...OAUTH_SCOPES],
    // Authorization code with PKCE for every client; oidc-provider accepts S256 only.
    pkce: { required: () => true },
    routes: OAUTH_ROUTES,
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL_SECONDS,
      AuthorizationCode: AUTHORIZATION_CODE_TTL_SECONDS,
      RefreshToken: REFRESH_TOKEN_TTL_SECONDS,
      // A connection outlives each refresh token by the rotation rule (core's store extends it).
      Grant: REFRESH_TOKEN_TTL_SECONDS,
      Interaction: 3600,
      Session: DAY,
    },
    rotateRefreshToken: true,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    // Tokens live by their own lifetimes, not the authorization server's cookie session.
    expiresWithSession: async () => false,
    // Every authorization shows the consent page (the user picks Full access or View only each time):
    // only the grant just made on it counts, never one remembered from an earlier authorization.
    loadExistingGrant: async (ctx) => {
      const grantId = (ctx.oidc.result?.consent as { grantId?: string } | undefined)?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    interactions: { url: (_ctx, interaction) => `${CONSENT_PATH}/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      // Not part of this server: OpenID logout, pushed requests, DPoP.
      rpInitiatedLogout: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      dPoP: { enabled: false },
      registration: { enabled: true },
      revocation: { enabled: true },
      userinfo: { enabled: false },
      resourceIndicators: resourceIndicators(resource),
      clientIdMetadataDocument: { enabled: true, ack: 'draft-02' },
    } as Configuration['features'],
    // Client ID metadata documents are fetched through the project's outbound guard.
    fetch: guardedClientFetch(opts.deps),
    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.body = oauthErrorPage(String(out.error), String(out.error_description ?? ''));
    },
  };
}

/**
 * The OAuth 2.1 authorization server of the MCP endpoint (Authentication rule 8), oidc-provider
 * configured for it: authorization code + PKCE (S256), the `iss` response parameter, resource
 * indicators bound to the MCP address, rotating refresh tokens whose reuse revokes the grant,
 * dynamic client registration, client ID metadata documents and revocation. Its state lives in
 * PostgreSQL, so any process serves any step.
 */
export function createOAuthProvider(opts: OAuthServerOptions): Provider {
  const provider = new Provider(opts.config.PUBLIC_URL.replace(/\/+$/, ''), configuration(opts));
  // URLs it builds come from PUBLIC_URL: the mount passes it as the forwarded host and scheme.
  provider.proxy = true;
  provider.on('server_error', (_ctx, err) => opts.logger.error({ err }, 'OAuth server error'));
  return provider;
}
