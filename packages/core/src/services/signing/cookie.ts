import { parseCookie, stringifySetCookie } from 'cookie';
import type { Config } from '../../config.ts';

/**
 * The email-code session cookie (docs/signing.md, the README's signing page: signing.verifyCode "unlocks the document for
 * this browser session"): HttpOnly, SameSite=Lax, Path=/trpc (the signing page itself is a static
 * shell; only the signing procedures under /trpc read it), one per signer so two links opened in
 * one browser do not overwrite each other. On an https PUBLIC_URL it is Secure and `__Secure-`
 * prefixed. Embedders without cookies pass the `session` that verifyCode also returns.
 */
export const SIGNING_COOKIE_PATH = '/trpc';

const isHttps = (config: Pick<Config, 'PUBLIC_URL'>) => config.PUBLIC_URL.startsWith('https:');

function signingCookieName(config: Pick<Config, 'PUBLIC_URL'>, signerId: number): string {
  return `${isHttps(config) ? '__Secure-' : ''}esign_signing_${signerId}`;
}

export function signingSetCookie(
  config: Pick<Config, 'PUBLIC_URL'>,
  cookie: { signerId: number; session: string; expiresAt: Date },
): string {
  return stringifySetCookie({
    name: signingCookieName(config, cookie.signerId),
    value: cookie.session,
    path: SIGNING_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure: isHttps(config),
    expires: cookie.expiresAt,
  });
}

/** The signer's session from the Cookie header, if it carries one of the right shape. */
export function signingSessionFromCookie(
  config: Pick<Config, 'PUBLIC_URL'>,
  signerId: number,
  cookieHeader: string | null | undefined,
): string | undefined {
  if (!cookieHeader) return undefined;
  const value = parseCookie(cookieHeader)[signingCookieName(config, signerId)];
  return value && /^[A-Za-z0-9_-]{20,200}$/.test(value) ? value : undefined;
}
