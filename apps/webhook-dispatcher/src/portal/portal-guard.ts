import { createParamDecorator, Inject, Injectable, SetMetadata, type CanActivate, type CustomDecorator, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import type { PortalGrant } from '@storage/webhooks';
import { PortalAccess, type Session } from './portal-access';

const PUBLIC = 'portal:public';
/** Methods that only read: every other one changes something, so it needs the session's form token. */
const READS = new Set(['GET', 'HEAD']);
/**
 * The checked session of each request, for `@PortalSession()`: kept beside the request rather than on it, so Fastify's
 * request type gains no field every service would see; weak, so it goes with its request.
 */
const sessions = new WeakMap<FastifyRequest, Session>();

/** A handler anyone may reach: sign-in, the script, unknown paths. Every other handler of a guarded controller needs a session. */
export const PortalPublic = (): CustomDecorator<string> => SetMetadata(PUBLIC, true);

/**
 * The portal's sessions (`@UseGuards` with `PortalRefusalFilter` on every portal controller): a link's session whose
 * API key is still active, checked on every request, not only at login (401 otherwise), and for a form post the form
 * token of that very session (403 otherwise), before the handler does anything.
 */
@Injectable()
export class PortalSessionGuard implements CanActivate {
  constructor(
    @Inject(Reflector) private readonly reflector: Reflector,
    @Inject(PortalAccess) private readonly access: PortalAccess,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.get<boolean | undefined>(PUBLIC, context.getHandler())) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const session = await this.access.session(request);
    if (!READS.has(request.method)) this.access.checkFormToken(request, session);
    sessions.set(request, session);
    return true;
  }
}

/** The session `PortalSessionGuard` checked (`@PortalSession('grant')`: its grant alone). */
export const PortalSession = createParamDecorator((field: 'grant' | undefined, context: ExecutionContext): Session | PortalGrant => {
  const session = sessions.get(context.switchToHttp().getRequest<FastifyRequest>());
  // Only a @PortalPublic handler, or a controller without the guard, gets here: a mistake, not a visitor's doing.
  if (!session) throw new Error('No portal session: @PortalSession() on a handler PortalSessionGuard does not check');
  return field === 'grant' ? session.grant : session;
});
