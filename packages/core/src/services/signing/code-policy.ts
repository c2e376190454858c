/**
 * Email codes (require_email_otp): how long a code lives, how often it may be tried and asked
 * for. With these numbers a signer's link allows at most 5 codes × 5 tries = 25 guesses an hour
 * at a 6-digit code (a 1 in 40,000 chance per hour).
 */
export const CODE_TTL_MS = 10 * 60_000;
/** A new code at most every 30 seconds ... */
export const CODE_RESEND_MS = 30_000;
/** ... and at most 5 an hour per signer (sliding window over the `otp.sent` audit entries). */
export const CODE_REQUESTS_PER_HOUR = 5;
/** Wrong tries after which a code is locked: the signer must ask for a new one. */
export const CODE_MAX_ATTEMPTS = 5;
/** How long a verified code keeps the document open in that browser. */
export const SIGNING_SESSION_TTL_MS = 12 * 3600_000;
