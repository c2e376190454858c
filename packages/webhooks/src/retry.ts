/** Each event is delivered at most 10 times in total: the first attempt plus up to 9 retries (spec, Limits). */
export const MAX_ATTEMPTS = 10;

/** Default first back-off step (`WEBHOOK_RETRY_BASE_SECONDS`, README, "Configuration"). */
export const DEFAULT_RETRY_BASE_SECONDS = 60;

/** Event types that are sent once and never retried (spec, Events: `webhook.test`). */
export const NEVER_RETRIED_EVENT_TYPES: ReadonlySet<string> = new Set(['webhook.test']);

/**
 * Seconds to wait before the next attempt, after `attemptsMade` attempts have failed; null when no
 * attempt is left. Back-off doubles from `baseSeconds` (spec: 1, 2, 4, 8 ... minutes with the
 * default 60): after attempt 1 wait 60 s, after attempt 2 wait 120 s, ... after attempt 9 wait
 * 15 360 s; after attempt 10, null. With 0 attempts made the first attempt is due now (0).
 */
export function nextRetryDelaySeconds(
  attemptsMade: number,
  baseSeconds: number = DEFAULT_RETRY_BASE_SECONDS,
): number | null {
  if (!Number.isSafeInteger(attemptsMade) || attemptsMade < 0) {
    throw new RangeError(`attemptsMade must be a non-negative integer, got ${attemptsMade}`);
  }
  if (!Number.isFinite(baseSeconds) || baseSeconds <= 0) {
    throw new RangeError(`baseSeconds must be a positive number, got ${baseSeconds}`);
  }
  if (attemptsMade >= MAX_ATTEMPTS) return null;
  if (attemptsMade === 0) return 0;
  return baseSeconds * 2 ** (attemptsMade - 1);
}

/** Like `nextRetryDelaySeconds`, but null after the first attempt of a never-retried event type. */
export function nextRetryDelayForEvent(
  eventType: string,
  attemptsMade: number,
  baseSeconds: number = DEFAULT_RETRY_BASE_SECONDS,
): number | null {
  if (NEVER_RETRIED_EVENT_TYPES.has(eventType) && attemptsMade >= 1) return null;
  return nextRetryDelaySeconds(attemptsMade, baseSeconds);
}

/** The nine waits between the ten attempts: [60, 120, 240, ..., 15360] with the default base. */
export function retrySchedule(baseSeconds: number = DEFAULT_RETRY_BASE_SECONDS): number[] {
  const delays: number[] = [];
  for (let made = 1; made < MAX_ATTEMPTS; made++) delays.push(nextRetryDelaySeconds(made, baseSeconds)!);
  return delays;
}
