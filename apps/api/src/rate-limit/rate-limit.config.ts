import { z } from 'zod';
import { loadConfig } from '@storage/platform';

/**
 * One limit: up to `burst` requests at once, refilled at one per `intervalMs`. `block` is how many a replica may
 * reserve from PostgreSQL in one round trip (1: every request asks, exactly).
 */
export interface RateLimitPolicy {
  /** The name sent in `RateLimit-Policy`. */
  name: string;
  intervalMs: number;
  burst: number;
  block: number;
}

/** The route classes of API-key routes: every route is `api-key` unless it says `@RateLimitClass('verification')`. */
export type KeyRouteClass = 'api-key' | 'verification';

export interface RateLimitConfig {
  /** Per API key and route class. */
  keyRoutes: Record<KeyRouteClass, RateLimitPolicy>;
  /** The keyless lease pages, per client address and per signing link. */
  leasePages: RateLimitPolicy;
  /** Verification codes sent to one person, whichever key asks. */
  codesPerPerson: RateLimitPolicy;
  /** Codes tried for one person (operation 2), right or wrong, whichever key asks. */
  attemptsPerPerson: RateLimitPolicy;
}

const count = (fallback: number, max: number) => z.coerce.number().int().min(1).max(max).default(fallback);

/*
 * Defaults: an integrator's key (a marketing site serving all its visitors) gets 100 requests/s with bursts of 500;
 * sending and checking codes, which cost a scrypt each and guard personal data, 1/s with bursts of 30 per key;
 * a tenant's browser on the lease pages 1/s with bursts of 30. Per person: 6 codes and 20 tries an hour, so guessing
 * one of a million codes takes years (and each code dies after 5 wrong guesses anyway).
 */
export const rateLimitConfigSchema = z
  .object({
    RATE_LIMIT_KEY_PER_MINUTE: count(6_000, 6_000_000),
    RATE_LIMIT_KEY_BURST: count(500, 1_000_000),
    RATE_LIMIT_VERIFICATION_PER_MINUTE: count(60, 6_000_000),
    RATE_LIMIT_VERIFICATION_BURST: count(30, 1_000_000),
    RATE_LIMIT_LEASE_PAGE_PER_MINUTE: count(60, 6_000_000),
    RATE_LIMIT_LEASE_PAGE_BURST: count(30, 1_000_000),
    VERIFICATION_CODES_PER_PERSON_PER_HOUR: count(6, 1_000_000),
    VERIFICATION_ATTEMPTS_PER_PERSON_PER_HOUR: count(20, 1_000_000),
    RATE_LIMIT_BLOCK: count(50, 1_000),
  })
  .transform((env): RateLimitConfig => {
    // A replica reserves at most a tenth of a burst, so replicas holding unused reservations cannot lock a client out.
    const policy = (name: string, perMinute: number, burst: number): RateLimitPolicy => ({
      name,
      intervalMs: 60_000 / perMinute,
      burst,
      block: Math.max(1, Math.min(env.RATE_LIMIT_BLOCK, Math.floor(burst / 10))),
    });
    // Per person: N an hour, N at once, each counted exactly.
    const hourly = (name: string, perHour: number): RateLimitPolicy => ({ name, intervalMs: 3_600_000 / perHour, burst: perHour, block: 1 });
    return {
      keyRoutes: {
        'api-key': policy('api-key', env.RATE_LIMIT_KEY_PER_MINUTE, env.RATE_LIMIT_KEY_BURST),
        verification: policy('verification', env.RATE_LIMIT_VERIFICATION_PER_MINUTE, env.RATE_LIMIT_VERIFICATION_BURST),
      },
      leasePages: policy('lease-page', env.RATE_LIMIT_LEASE_PAGE_PER_MINUTE, env.RATE_LIMIT_LEASE_PAGE_BURST),
      codesPerPerson: hourly('codes-per-person', env.VERIFICATION_CODES_PER_PERSON_PER_HOUR),
      attemptsPerPerson: hourly('attempts-per-person', env.VERIFICATION_ATTEMPTS_PER_PERSON_PER_HOUR),
    };
  });

export const loadRateLimitConfig = (env: NodeJS.ProcessEnv = process.env): RateLimitConfig => loadConfig(rateLimitConfigSchema, env);
