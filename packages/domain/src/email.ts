/** The longest address SMTP can carry (RFC 5321 path limit less the angle brackets). */
export const MAX_EMAIL_LENGTH = 254;

/**
 * The one email rule of the service (signers, users, reply-to): the WHATWG HTML "valid e-mail
 * address" (what `<input type=email>` accepts), with one change: the domain needs at least one dot,
 * since mail to a bare host name such as `jane@localhost` never reaches a person. ASCII only;
 * internationalised domains are written in their `xn--` form. Quotes, spaces, angle brackets, commas
 * and line breaks are refused, so an address can never smuggle a second one into a mail header.
 */
export const EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

/** Whether `s` is an email address the service accepts (checked as given: trim first if needed). */
export function isEmail(s: string): boolean {
  return s.length <= MAX_EMAIL_LENGTH && EMAIL_PATTERN.test(s);
}
