/** The signer's token: the last path segment of the signing link /s/{token}. */
export const token = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() ?? '');

/**
 * The email-code session (require_email_otp) that signing.verifyCode returns, kept for this tab
 * only, so a reload does not ask for a new code.
 */
const SESSION_KEY = `esign.signing-session.${token}`;

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

let session: string | undefined = storage()?.getItem(SESSION_KEY) ?? undefined;

export const hasSession = () => session !== undefined;

export function setSession(s: string | undefined): void {
  session = s;
  if (s) storage()?.setItem(SESSION_KEY, s);
  else storage()?.removeItem(SESSION_KEY);
}

/** A procedure's input with the session added when there is one. */
export const withSession = <T extends object>(input: T): T & { session?: string } =>
  session ? { ...input, session } : input;
