import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';
import { checkPortalToken, type PortalGrant } from '@storage/webhooks';
import { Clock } from '../clock';
import { grantKeyActive } from './portal-keys';
import type { DeniedReason } from './portal-pages';
import { PortalRefusal } from './portal-refusal';
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

  /** Refuses (403, nothing done) a post without the form token of this session. */
  checkFormToken(request: FastifyRequest, session: Session): void {
    if (!csrfMatches(request, this.secret, session.token)) throw PortalRefusal.forbidden();
  }

  /** The grant of a login link whose key is still active, else a 401 refusal. */
  async linkGrant(token: string | undefined): Promise<PortalGrant> {
    const check = token ? checkPortalToken(token, this.clock.now(), this.secret) : ({ ok: false, reason: 'missing' } as const);
    if (!check.ok) throw PortalRefusal.denied(check.reason);
    if (!(await grantKeyActive(this.dataSource, check.grant))) throw PortalRefusal.denied('revoked');
    return check.grant;
  }

  /**
   * The session of a request, else a 401 refusal: no data for an expired or forged link, nor once its API key is
   * revoked (checked on every request, not only at login).
   */
  async session(request: FastifyRequest): Promise<Session> {
    const check = await this.check(request);
    if (typeof check === 'string') throw PortalRefusal.denied(check);
    return check;
  }

  /** The open session when it is valid and its key active, else undefined (for the sign-in, which needs none). */
  async currentSession(request: FastifyRequest): Promise<Session | undefined> {
    const check = await this.check(request);
    return typeof check === 'string' ? undefined : check;
  }

  private async check(request: FastifyRequest): Promise<Session | DeniedReason> {
    const check = checkSession(request, this.clock.now(), this.secret);
    if (!check.ok) return check.reason;
    if (!(await grantKeyActive(this.dataSource, check.grant))) return 'revoked';
    return { grant: check.grant, token: check.token };
  }
}
