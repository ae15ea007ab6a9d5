/**
 * How often a failing handler is tried before its message is dead-lettered, and the pause between tries.
 * Transient failures (an outage, see `isTransient`) are not counted: they are retried at the same pace,
 * capped at maxBackoffMs, until the dependency is back.
 */
export interface RetryPolicy {
  /** Tries that failed with a non-transient error before the message is dead-lettered. */
  attempts: number;
  /** First pause; doubles each try, capped at maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, backoffMs: 100, maxBackoffMs: 2_000 };

export function backoff(policy: RetryPolicy, failedAttempt: number): number {
  return Math.min(policy.maxBackoffMs, policy.backoffMs * 2 ** (failedAttempt - 1));
}
