import { HttpException, HttpStatus, Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RateLimitPolicy } from './rate-limit.config';
import { pruneBuckets, takeFromBucket } from './rate-limit.store';

export type RateDecision = { allowed: true } | { allowed: false; retryAfterMs: number };

const ALLOWED: RateDecision = { allowed: true };

/** Reserved requests unused this long are dropped, so a replica never serves a client from an old reservation. */
const RESERVATION_LIFETIME_MS = 1_000;
/** A replica reserves what a tenth of a second of the bucket's recent traffic needs. */
const RESERVATIONS_PER_SECOND = 10;
const PRUNE_EVERY_MS = 60_000;

/** A replica's view of one bucket. */
interface LocalBucket {
  /** Requests reserved from PostgreSQL, not yet used, until `expiresAt`. */
  reserved: number;
  expiresAt: number;
  /** Refused without asking PostgreSQL until then: the shared bucket said it has no room before. */
  deniedUntil: number;
  /** The reservation under way, which concurrent requests wait for rather than each asking. */
  reserving?: Promise<void>;
  /** Requests seen in the current second and the one before, to size the next reservation. */
  second: number;
  seenThisSecond: number;
  seenLastSecond: number;
}

/**
 * Rate limits shared by every replica through PostgreSQL (`api_rate_limits`, one atomic statement per check).
 * On a busy bucket a replica reserves several requests per round trip and spends them locally; a refused bucket
 * is refused locally until it has room again, so a client hammering while limited costs no database work.
 */
@Injectable()
export class RateLimiter implements OnModuleDestroy {
  private readonly logger = new Logger(RateLimiter.name);
  private readonly buckets = new Map<string, LocalBucket>();
  private readonly pruning: NodeJS.Timeout;

  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {
    this.pruning = setInterval(() => void this.prune(), PRUNE_EVERY_MS).unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.pruning);
  }

  async take(bucket: string, policy: RateLimitPolicy): Promise<RateDecision> {
    const local = this.local(bucket);
    for (;;) {
      const now = Date.now();
      if (local.deniedUntil > now) return { allowed: false, retryAfterMs: local.deniedUntil - now };
      if (local.reserved > 0 && local.expiresAt > now) {
        local.reserved -= 1;
        return ALLOWED;
      }
      local.reserving ??= this.reserve(bucket, local, policy).finally(() => {
        local.reserving = undefined;
      });
      await local.reserving;
    }
  }

  private local(bucket: string): LocalBucket {
    let local = this.buckets.get(bucket);
    if (local === undefined) {
      local = { reserved: 0, expiresAt: 0, deniedUntil: 0, second: 0, seenThisSecond: 0, seenLastSecond: 0 };
      this.buckets.set(bucket, local);
    }
    const second = Math.floor(Date.now() / 1000);
    if (second !== local.second) {
      local.seenLastSecond = second === local.second + 1 ? local.seenThisSecond : 0;
      local.seenThisSecond = 0;
      local.second = second;
    }
    local.seenThisSecond += 1;
    return local;
  }

  private async reserve(bucket: string, local: LocalBucket, policy: RateLimitPolicy): Promise<void> {
    const recent = Math.max(local.seenLastSecond, local.seenThisSecond);
    const wanted = Math.min(policy.block, Math.max(1, Math.ceil(recent / RESERVATIONS_PER_SECOND)));
    const grant = await takeFromBucket(this.dataSource, bucket, wanted, policy);
    const now = Date.now();
    if (grant.granted === 0) {
      local.deniedUntil = now + Math.max(1, grant.retryAfterMs);
      return;
    }
    local.reserved = grant.granted;
    local.expiresAt = now + RESERVATION_LIFETIME_MS;
  }

  /** Forgets buckets no longer in use, here and in PostgreSQL. */
  private async prune(): Promise<void> {
    const now = Date.now();
    for (const [bucket, local] of this.buckets) {
      if (local.reserving === undefined && local.deniedUntil <= now && local.expiresAt <= now) this.buckets.delete(bucket);
    }
    // A missed pruning only leaves full buckets a minute longer.
    await pruneBuckets(this.dataSource).catch((error: unknown) => this.logger.warn(`pruning api_rate_limits failed: ${String(error)}`));
  }
}

/**
 * 429 problem+json with `Retry-After` (whole seconds, rounded up) and the draft IETF `RateLimit-Policy` and
 * `RateLimit` headers naming the limit that refused.
 */
export function tooManyRequests(policy: RateLimitPolicy, retryAfterMs: number, detail: string): HttpException {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  const window = Math.round((policy.burst * policy.intervalMs) / 1000);
  return new HttpException(
    {
      detail: `${detail} Try again in ${seconds} s.`,
      headers: {
        'retry-after': String(seconds),
        'ratelimit-policy': `"${policy.name}";q=${policy.burst};w=${Math.max(1, window)}`,
        ratelimit: `"${policy.name}";r=0;t=${seconds}`,
      },
    },
    HttpStatus.TOO_MANY_REQUESTS,
  );
}
