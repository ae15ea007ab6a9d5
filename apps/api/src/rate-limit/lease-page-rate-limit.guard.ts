import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { RateLimits } from './rate-limits';

/**
 * The lease pages' limit: they take no API key, so the client's address (as the proxy in front reports it) and
 * the link's token stand for the client. Runs before the page is looked up.
 */
@Injectable()
export class LeasePageRateLimitGuard implements CanActivate {
  constructor(@Inject(RateLimits) private readonly limits: RateLimits) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const token = (request.params as { token?: string }).token ?? '';
    await this.limits.forLeasePage(request.ip, token);
    return true;
  }
}
