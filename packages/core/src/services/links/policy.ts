// The abuse limits of a template's public signing link (docs/sending.md): every visit that asks for
// an email code counts, whether or not it ends in a signature.

/** Codes one email address may ask for, over every link, in an hour. */
export const LINK_VISITS_PER_EMAIL_PER_HOUR = 3;
/** Codes one IP address may ask for, over every link, in an hour. */
export const LINK_VISITS_PER_IP_PER_HOUR = 10;
/** Codes one template's link may send in an hour, whoever asks. */
export const LINK_VISITS_PER_TEMPLATE_PER_HOUR = 60;
/** How long an emailed code works, and how many wrong tries it survives. */
export const LINK_CODE_TTL_MS = 10 * 60_000;
export const LINK_CODE_MAX_ATTEMPTS = 5;
export const HOUR_MS = 3_600_000;
