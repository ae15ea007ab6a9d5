/** How often a failing handler is tried before its message is dead-lettered, and the pause between tries. */
export interface RetryPolicy {
  attempts: number;
  /** First pause; doubles each try, capped at maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, backoffMs: 100, maxBackoffMs: 2_000 };

export function backoff(policy: RetryPolicy, failedAttempt: number): number {
  return Math.min(policy.maxBackoffMs, policy.backoffMs * 2 ** (failedAttempt - 1));
}
