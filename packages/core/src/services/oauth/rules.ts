import type { Environment } from '@esign/db';

/**
 * The MCP authorization rules of the specification (Authentication rule 8, Limits "MCP tokens"),
 * in one place for the authorization server (apps/web/src/oauth) and the token check (core's
 * authenticate): scopes, lifetimes and the one resource tokens are bound to.
 */
export const OAUTH_SCOPES = ['read', 'write'] as const;
export type OAuthScope = (typeof OAUTH_SCOPES)[number];

/** Access tokens last one hour. */
export const ACCESS_TOKEN_TTL_SECONDS = 3600;
/** Refresh tokens last 60 days (each rotation issues a new one for another 60 days). */
export const REFRESH_TOKEN_TTL_SECONDS = 60 * 24 * 3600;
/** An authorization code is exchanged within a minute. */
export const AUTHORIZATION_CODE_TTL_SECONDS = 60;

/** The MCP endpoint's path (operations.md §1) and so the resource every OAuth token is bound to. */
export const MCP_PATH = '/mcp';

/** The resource indicator of the MCP endpoint (RFC 8707): its absolute address. */
export function mcpResource(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, '')}${MCP_PATH}`;
}

/** Where a client finds the MCP endpoint's protected resource metadata (RFC 9728). */
export function resourceMetadataUrl(publicUrl: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/.well-known/oauth-protected-resource${MCP_PATH}`;
}

/**
 * The authorization server's subject for a connection: the approving user and the side of the
 * account (live or test) their session looked at when they approved (`12:live`).
 */
export function oauthSubject(userId: number, environment: Environment): string {
  return `${userId}:${environment}`;
}

export function parseOAuthSubject(subject: unknown): { userId: number; environment: Environment } | null {
  if (typeof subject !== 'string') return null;
  const match = /^([1-9]\d{0,9}):(live|test)$/.exec(subject);
  if (!match) return null;
  return { userId: Number(match[1]), environment: match[2] as Environment };
}

/** The access a consent choice grants: Full access reads and writes, View only reads. */
export function scopesOf(access: 'full' | 'read'): OAuthScope[] {
  return access === 'full' ? ['read', 'write'] : ['read'];
}
