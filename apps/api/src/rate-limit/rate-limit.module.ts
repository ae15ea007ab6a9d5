import { Global, Module, type DynamicModule } from '@nestjs/common';
import { LeasePageRateLimitGuard } from './lease-page-rate-limit.guard';
import type { RateLimitConfig } from './rate-limit.config';
import { RateLimiter } from './rate-limiter';
import { RATE_LIMIT_CONFIG, RateLimits } from './rate-limits';

/** Global so the API key guard, the lease pages and the verification codes share one limiter per replica. */
@Global()
@Module({})
export class RateLimitModule {
  static forRoot(config: RateLimitConfig): DynamicModule {
    return {
      module: RateLimitModule,
      providers: [{ provide: RATE_LIMIT_CONFIG, useValue: config }, RateLimiter, RateLimits, LeasePageRateLimitGuard],
      exports: [RateLimits, LeasePageRateLimitGuard],
    };
  }
}
