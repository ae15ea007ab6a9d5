import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';
import { checkPortalToken, type PortalGrant } from '@storage/webhooks';
import { Clock } from '../clock';
import { grantKeyActive } from './portal-keys';
import { deniedPage, forbiddenPage } from './portal-pages';
import { send } from './portal-replies';
import { checkSession, csrfMatches, csrfToken } from './portal-session';
import { PORTAL_SECRET } from './portal.tokens';

/** An open portal session: the grant of its link and the link's token (the cookie). */
export interface Session {
  grant: PortalGrant;
  token: string;
}

/** Who may see and do what in the portal: the link's grant, its key checked on every request, and the form tokens. */
@Injectable()
export class PortalAccess {
  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(PORTAL_SECRET) private readonly secret: string,
  ) {}

  /** The form token of the session, for every POST form of its pages. */
  csrf(session: Session): string {
    return csrfToken(this.secret, session.token);
  }

  /** Whether a post carries the form token of this session. */
  formTokenMatches(request: FastifyRequest, session: Session): boolean {
    return csrfMatches(request, this.secret, session.token);
  }

  /** The grant of a login link whose key is still active, or undefined after answering with the denied page. */
  async linkGrant(token: string | undefined, reply: FastifyReply): Promise<PortalGrant | undefined> {
    const check = token ? checkPortalToken(token, this.clock.now(), this.secret) : ({ ok: false, reason: 'missing' } as const);
    if (!check.ok) return send(reply, 401, deniedPage(check.reason));
    if (!(await grantKeyActive(this.dataSource, check.grant))) return send(reply, 401, deniedPage('revoked'));
    return check.grant;
  }

  /** The open session when it is valid and its key active, else undefined (nothing answered). */
  async currentSession(request: FastifyRequest): Promise<Session | undefined> {
    const check = checkSession(request, this.clock.now(), this.secret);
    if (!check.ok || !(await grantKeyActive(this.dataSource, check.grant))) return undefined;
    return check;
  }

  /**
   * The session of a page, or undefined after answering with the denied page: no data for an expired or forged
   * link, nor once its API key is revoked (checked on every request, not only at login).
   */
  async session(request: FastifyRequest, reply: FastifyReply): Promise<Session | undefined> {
    const check = checkSession(request, this.clock.now(), this.secret);
    if (!check.ok) return send(reply, 401, deniedPage(check.reason));
    if (!(await grantKeyActive(this.dataSource, check.grant))) return send(reply, 401, deniedPage('revoked'));
    return check;
  }

  /** The grant of a form post: a session, and the form token of that very session (403 and nothing done otherwise). */
  async action(request: FastifyRequest, reply: FastifyReply): Promise<PortalGrant | undefined> {
    return (await this.formSession(request, reply))?.grant;
  }

  /** The session of a form post, checked as `action` does, for a form page shown again with what was refused. */
  async formSession(request: FastifyRequest, reply: FastifyReply): Promise<Session | undefined> {
    const session = await this.session(request, reply);
    if (!session) return undefined;
    if (!this.formTokenMatches(request, session)) return send(reply, 403, forbiddenPage());
    return session;
  }
}
