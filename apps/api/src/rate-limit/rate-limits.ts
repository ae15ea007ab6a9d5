import { createHash } from 'node:crypto';
import { Inject, Injectable, SetMetadata, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { KeyRouteClass, RateLimitConfig, RateLimitPolicy } from './rate-limit.config';
import { RateLimiter, tooManyRequests } from './rate-limiter';

export const RATE_LIMIT_CONFIG = Symbol('RATE_LIMIT_CONFIG');
const ROUTE_CLASS = 'storage:rate-limit-class';

/** Puts a route in a stricter class than its API key's default (check-preexisting, operation 2). */
export const RateLimitClass = (routeClass: KeyRouteClass): MethodDecorator => SetMetadata(ROUTE_CLASS, routeClass);

/** The limits of the api, each answering 429 when exceeded. */
@Injectable()
export class RateLimits {
  constructor(
    @Inject(RATE_LIMIT_CONFIG) private readonly config: RateLimitConfig,
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
    @Inject(Reflector) private readonly reflector: Reflector,
  ) {}

  /** Per API key and the route's class; called by the API key guard once the key is known. */
  async forKey(apiKeyUuid: string, context: ExecutionContext): Promise<void> {
    const routeClass = this.reflector.get<KeyRouteClass | undefined>(ROUTE_CLASS, context.getHandler()) ?? 'api-key';
    await this.enforce(`key:${apiKeyUuid}:${routeClass}`, this.config.keyRoutes[routeClass], 'This API key has sent too many requests of this kind.');
  }

  /** The lease pages: per client address, and per signing link whatever address it comes from. */
  async forLeasePage(clientAddress: string, token: string): Promise<void> {
    const detail = 'Too many requests for lease pages.';
    await this.enforce(`address:${clientAddress}:lease-page`, this.config.leasePages, detail);
    // The token is a credential: the table holds its digest, not the link.
    await this.enforce(`lease:${createHash('sha256').update(token).digest('base64url')}`, this.config.leasePages, detail);
  }

  /** Codes sent to one person. */
  async codeSent(personUuid: string): Promise<void> {
    await this.enforce(`person:${personUuid}:codes`, this.config.codesPerPerson, 'Too many verification codes were sent to this person.');
  }

  /** Codes tried for one person: refused before the code is looked at, so a guess beyond the limit learns nothing. */
  async codeTried(personUuid: string): Promise<void> {
    await this.enforce(`person:${personUuid}:attempts`, this.config.attemptsPerPerson, 'Too many verification codes were tried for this person.');
  }

  private async enforce(bucket: string, policy: RateLimitPolicy, detail: string): Promise<void> {
    const decision = await this.limiter.take(bucket, policy);
    if (!decision.allowed) throw tooManyRequests(policy, decision.retryAfterMs, detail);
  }
}
