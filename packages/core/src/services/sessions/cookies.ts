import { parseCookie, stringifySetCookie } from 'cookie';
import type { Config } from '../../config.ts';

/**
 * The session cookie (README, "Dashboard"): HttpOnly, SameSite=Lax, Path=/, host-only. On an https
 * PUBLIC_URL it is also Secure and named with the `__Host-` prefix, which browsers only accept
 * from a secure origin without a Domain attribute.
 */
export function sessionCookieName(config: Pick<Config, 'PUBLIC_URL'>): string {
  return isHttps(config) ? '__Host-esign_session' : 'esign_session';
}

const isHttps = (config: Pick<Config, 'PUBLIC_URL'>) => config.PUBLIC_URL.startsWith('https:');

/** Whether a Cookie header carries a session cookie at all (either name), before it is checked. */
export function carriesSessionCookie(cookieHeader: string | undefined): boolean {
  if (!cookieHeader) return false;
  const cookies = parseCookie(cookieHeader);
  return Boolean(cookies.esign_session || cookies['__Host-esign_session']);
}

/** The session token carried by a Cookie header, if any. */
export function sessionTokenFromCookie(
  config: Pick<Config, 'PUBLIC_URL'>,
  cookieHeader: string | undefined,
): string | null {
  if (!cookieHeader) return null;
  const value = parseCookie(cookieHeader)[sessionCookieName(config)];
  return value && /^[A-Za-z0-9_-]{20,200}$/.test(value) ? value : null;
}

export function sessionSetCookie(config: Pick<Config, 'PUBLIC_URL'>, token: string, expiresAt: Date): string {
  return stringifySetCookie({
    name: sessionCookieName(config),
    value: token,
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: isHttps(config),
    expires: expiresAt,
  });
}

export function sessionClearCookie(config: Pick<Config, 'PUBLIC_URL'>): string {
  return stringifySetCookie({
    name: sessionCookieName(config),
    value: '',
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: isHttps(config),
    expires: new Date(0),
  });
}

/**
 * Single sign-on (issue 45 item 4): the state of a sign-in sent to the identity provider, kept by
 * the browser that started it, sent back only to /sso/callback. It binds the provider's answer
 * to this browser (an answer replayed in another browser has no cookie).
 */
const SSO_STATE_COOKIE = 'esign_sso_state';

export function ssoStateSetCookie(
  config: Pick<Config, 'PUBLIC_URL'>,
  state: string,
  maxAgeSeconds: number,
): string {
  return stringifySetCookie({
    name: SSO_STATE_COOKIE,
    value: state,
    path: '/sso/callback',
    httpOnly: true,
    // Lax: the provider's redirect back is a top-level GET, which carries it.
    sameSite: 'lax',
    secure: isHttps(config),
    maxAge: maxAgeSeconds,
  });
}

export function ssoStateFromCookie(cookieHeader: string | undefined): string | null {
  if (!cookieHeader) return null;
  return parseCookie(cookieHeader)[SSO_STATE_COOKIE] ?? null;
}
