import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, nextRetryDelayForEvent, nextRetryDelaySeconds, retrySchedule } from '../src/index.ts';

describe('Delivery rules: exponential back-off of 1, 2, 4, 8 ... minutes', () => {
  it('waits 60, 120, 240, ... seconds after attempts 1, 2, 3, ...', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => nextRetryDelaySeconds(n))).toEqual([
      60, 120, 240, 480, 960, 1920, 3840, 7680, 15360,
    ]);
  });

  it('is the nine waits between ten attempts', () => {
    expect(retrySchedule()).toEqual([60, 120, 240, 480, 960, 1920, 3840, 7680, 15360]);
    expect(retrySchedule(5)).toEqual([5, 10, 20, 40, 80, 160, 320, 640, 1280]);
  });

  it('takes its first step from WEBHOOK_RETRY_BASE_SECONDS', () => {
    expect(nextRetryDelaySeconds(1, 1)).toBe(1);
    expect(nextRetryDelaySeconds(3, 1)).toBe(4);
    expect(nextRetryDelaySeconds(2, 0.5)).toBe(1);
  });

  it('makes the first attempt immediately', () => {
    expect(nextRetryDelaySeconds(0)).toBe(0);
  });

  it('rejects nonsense input', () => {
    expect(() => nextRetryDelaySeconds(-1)).toThrow(RangeError);
    expect(() => nextRetryDelaySeconds(1.5)).toThrow(RangeError);
    expect(() => nextRetryDelaySeconds(1, 0)).toThrow(RangeError);
    expect(() => nextRetryDelaySeconds(1, Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});

describe('Limits: each event is delivered at most 10 times in total (first plus 9 retries)', () => {
  it('MAX_ATTEMPTS is 10', () => {
    expect(MAX_ATTEMPTS).toBe(10);
  });

  it('stops after the tenth attempt', () => {
    expect(nextRetryDelaySeconds(9)).not.toBeNull();
    expect(nextRetryDelaySeconds(10)).toBeNull();
    expect(nextRetryDelaySeconds(11)).toBeNull();
    expect(nextRetryDelaySeconds(10, 1)).toBeNull();
  });

  it('a simulated always-failing endpoint gets exactly 10 attempts spread over 511 minutes', () => {
    let attempts = 0;
    let elapsed = 0;
    for (;;) {
      attempts++;
      const delay = nextRetryDelaySeconds(attempts);
      if (delay === null) break;
      elapsed += delay;
    }
    expect(attempts).toBe(10);
    expect(elapsed).toBe(511 * 60);
  });
});

describe('Event types: webhook.test is never retried', () => {
  it('returns null after the first webhook.test attempt', () => {
    expect(nextRetryDelayForEvent('webhook.test', 0)).toBe(0);
    expect(nextRetryDelayForEvent('webhook.test', 1)).toBeNull();
  });

  it('retries other events on the normal schedule', () => {
    expect(nextRetryDelayForEvent('signer.signed', 1)).toBe(60);
    expect(nextRetryDelayForEvent('signer.signed', 2, 10)).toBe(20);
    expect(nextRetryDelayForEvent('signer.signed', 10)).toBeNull();
  });
});
