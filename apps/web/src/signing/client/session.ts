/**
 * The signer's token: the last path segment of the signing link /s/{token} (or /e/{token}).
 *
 * The email-code session (require_email_otp): signing.verifyCode sets it as an HTTP-only cookie
 * that the browser sends with every later signing call (docs/signing.md). A page embedded in a
 * frame on another site does not get that cookie back (SameSite=Lax, and browsers that block
 * third-party cookies), so the page also keeps the `session` verifyCode returns, in memory only
 * (never in storage or a URL), and sends it with every later call: one code then works in a frame
 * as it does in a tab.
 */
const token = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() ?? '');

let session: string | undefined;

/**
 * Issue 47: the page opened with `?hosted=1` runs in person on the host's device (its cookie, set
 * by the dashboard, replaces the code; the server refuses it on any other device).
 */
const hosted = new URLSearchParams(location.search).get('hosted') === '1';

export const isHosted = (): boolean => hosted;

/** Remembers the session verifyCode returned, for this page's later calls. */
export function keepSession(value: string): void {
  session = value;
}

/** What identifies the signer in each signing call: the token and, once a code was verified, the session. */
export function signerInput(): { token: string; session?: string; hosted?: true } {
  return { token, ...(session ? { session } : {}), ...(hosted ? { hosted: true as const } : {}) };
}
