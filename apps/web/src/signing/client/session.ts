/**
 * The signer's token: the last path segment of the signing link /s/{token}. The email-code
 * session (require_email_otp) needs nothing here: signing.verifyCode sets it as an HTTP-only
 * cookie that the browser sends with every later signing call (docs/signing.md), so no script on
 * the page can read it.
 */
export const token = decodeURIComponent(location.pathname.split('/').filter(Boolean).pop() ?? '');
