import type { Config } from '../config.ts';

// How emails and SMS are retried (issue 41 item 4): a failed attempt is retried on a capped
// exponential back-off until the message's retry window (MESSAGE_RETRY_HOURS, from its creation
// or from the operator's `esign mail retry` / `esign sms retry`) runs out; then it is
// `undeliverable`, which the metrics and the dashboard show and the retry commands queue again.
// The job of a message never runs out of attempts before its window does (MESSAGE_MAX_ATTEMPTS).

/** First step of the back-off; the steps double up to MESSAGE_RETRY_CAP_MS. */
const MESSAGE_RETRY_FIRST_MS = 5_000;
/** The longest wait between two attempts: a message goes out at most this long after its provider is back. */
const MESSAGE_RETRY_CAP_MS = 10 * 60_000;
/**
 * Attempts of a message's job: more than a window of MESSAGE_RETRY_HOURS' longest value takes at
 * the cap, so the window, not the attempt count, decides when to give up.
 */
export const MESSAGE_MAX_ATTEMPTS = 1_000_000;

/** The wait after failed attempt number `attempts` (1 for the first). */
export function messageRetryDelayMs(attempts: number): number {
  return Math.min(
    MESSAGE_RETRY_FIRST_MS * 2 ** Math.min(30, Math.max(0, attempts - 1)),
    MESSAGE_RETRY_CAP_MS,
  );
}

/** Whether a message created (or last queued again by an operator) then is past its retry window at `now`. */
export function retryWindowOver(
  config: Pick<Config, 'MESSAGE_RETRY_HOURS'>,
  message: { created_at: Date; retried_at: Date | null },
  now: Date,
): boolean {
  const from = message.retried_at ?? message.created_at;
  return now.getTime() - from.getTime() >= config.MESSAGE_RETRY_HOURS * 3_600_000;
}
