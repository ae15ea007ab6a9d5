// The api's rate limits (issue 14): per API key and route class, lease pages, verification codes.
export { LeasePageRateLimitGuard } from './lease-page-rate-limit.guard';
export { loadRateLimitConfig, type RateLimitConfig } from './rate-limit.config';
export { RateLimitModule } from './rate-limit.module';
export { RateLimitClass, RateLimits } from './rate-limits';
