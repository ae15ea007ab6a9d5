const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/** Waits after the first try and each retry (ARCHITECTURE.md "Webhook delivery"); 8 tries in all. */
export const RETRY_SCHEDULE_MS = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR] as const;
export const JITTER = 0.2;
/** The least wait after a timeout or a 429, so a struggling receiver gets room. */
export const SLOW_DOWN_FLOOR_MS = 60 * SECOND;
/** A Retry-After beyond this is capped, so one header cannot park a message for weeks. */
export const MAX_RETRY_AFTER_MS = 24 * HOUR;
/** Failing without a success for this long disables an endpoint. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * HOUR;

export interface FailedTry {
  /** Tries made so far, this one included (1 after the first). */
  tries: number;
  timedOut: boolean;
  statusCode: number | null;
  retryAfterMs: number | null;
}

/** Milliseconds until the next try, or null when the schedule is exhausted. `random` is in [0, 1). */
export function retryDelay(failed: FailedTry, random: number): number | null {
  const base = RETRY_SCHEDULE_MS[failed.tries - 1];
  if (base === undefined) return null;
  let delay = Math.round(base * (1 - JITTER + 2 * JITTER * random));
  if (failed.timedOut || failed.statusCode === 429) delay = Math.max(delay, SLOW_DOWN_FLOOR_MS);
  if (failed.retryAfterMs !== null) delay = Math.max(delay, Math.min(failed.retryAfterMs, MAX_RETRY_AFTER_MS));
  return delay;
}

/** `Retry-After` as milliseconds from now: delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: Date): number | null {
  if (!value) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * SECOND;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now.getTime());
}
