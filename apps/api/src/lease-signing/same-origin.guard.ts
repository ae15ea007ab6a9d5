import { ForbiddenException, Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';

/** The origin of PUBLIC_BASE_URL: where tenants reach the lease pages. */
export const LEASE_PAGE_ORIGIN = Symbol('LEASE_PAGE_ORIGIN');

/**
 * Signing is a form post that the token in its address authorises, so a page of another site that knows a link
 * could make the tenant's browser sign. Browsers say where a post comes from: refused when `Sec-Fetch-Site` says
 * cross-site or `Origin` names another origin than ours. Ours is the public base URL's, or the scheme and host the
 * request came to (a proxy serving the pages under another name); a browser cannot forge either header for
 * another site's page. Clients that send neither (not a browser) are not the threat and pass.
 */
@Injectable()
export class SameOriginGuard implements CanActivate {
  constructor(@Inject(LEASE_PAGE_ORIGIN) private readonly publicOrigin: string) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const site = request.headers['sec-fetch-site'];
    const origin = request.headers.origin;
    if (site === 'cross-site' || (origin !== undefined && origin !== this.publicOrigin && origin !== originOf(`${request.protocol}://${request.host}`))) {
      throw new ForbiddenException('A lease is signed from its own page: this form was posted from another site.');
    }
    return true;
  }
}

/** The serialised origin of a URL (lower case, default port dropped), as browsers write `Origin`; null when not a URL. */
function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}
