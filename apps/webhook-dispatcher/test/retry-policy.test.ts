import fc from 'fast-check';
import { JITTER, MAX_RETRY_AFTER_MS, parseRetryAfter, RETRY_SCHEDULE_MS, retryDelay, SLOW_DOWN_FLOOR_MS } from '../src/delivery/retry-policy';

const plain = { timedOut: false, statusCode: 500, retryAfterMs: null };

describe('retry policy', () => {
  it('follows 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then gives up', () => {
    expect(RETRY_SCHEDULE_MS.map((_, i) => retryDelay({ ...plain, tries: i + 1 }, 0.5))).toEqual([
      5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000,
    ]);
    expect(retryDelay({ ...plain, tries: 8 }, 0.5)).toBeNull();
  });

  it('keeps jitter within ±20 %', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 7 }), fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (tries, random) => {
        const base = RETRY_SCHEDULE_MS[tries - 1];
        const delay = retryDelay({ ...plain, tries }, random)!;
        return delay >= Math.floor(base * (1 - JITTER)) && delay <= Math.ceil(base * (1 + JITTER));
      }),
    );
    expect(retryDelay({ ...plain, tries: 1 }, 0)).toBe(4_000);
    expect(retryDelay({ ...plain, tries: 1 }, 0.999_999)).toBe(6_000);
  });

  it('waits at least 60 s after a timeout or a 429', () => {
    expect(retryDelay({ ...plain, tries: 1, timedOut: true, statusCode: null }, 0.5)).toBe(SLOW_DOWN_FLOOR_MS);
    expect(retryDelay({ ...plain, tries: 1, statusCode: 429 }, 0)).toBe(SLOW_DOWN_FLOOR_MS);
    expect(retryDelay({ ...plain, tries: 3, statusCode: 429 }, 0.5)).toBe(1_800_000);
  });

  it('honours Retry-After when it asks for longer, capped at a day', () => {
    expect(retryDelay({ ...plain, tries: 1, retryAfterMs: 120_000 }, 0.5)).toBe(120_000);
    expect(retryDelay({ ...plain, tries: 2, retryAfterMs: 1_000 }, 0.5)).toBe(300_000);
    expect(retryDelay({ ...plain, tries: 1, retryAfterMs: 30 * 86_400_000 }, 0.5)).toBe(MAX_RETRY_AFTER_MS);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = new Date('2025-06-01T12:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Sun, 01 Jun 2025 12:05:00 GMT', now)).toBe(300_000);
    expect(parseRetryAfter('Sun, 01 Jun 2025 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
  });
});
