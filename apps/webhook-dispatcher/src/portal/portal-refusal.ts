import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { deniedPage, forbiddenPage, type DeniedReason } from './portal-pages';
import { send } from './portal-replies';

/**
 * A portal request refused before anything is shown or done: a link that does not (or no longer) hold, or a form post
 * without its session's form token. Not an HttpException, so that without `PortalRefusalFilter` it fails closed (500).
 */
export class PortalRefusal extends Error {
  private constructor(
    readonly status: 401 | 403,
    readonly page: string,
  ) {
    super(`portal request refused (${status})`);
  }

  static denied(reason: DeniedReason): PortalRefusal {
    return new PortalRefusal(401, deniedPage(reason));
  }

  static forbidden(): PortalRefusal {
    return new PortalRefusal(403, forbiddenPage());
  }
}

/** Answers a refusal with its HTML page, as every portal page is answered (not the framework's JSON). */
@Catch(PortalRefusal)
export class PortalRefusalFilter implements ExceptionFilter<PortalRefusal> {
  catch(refusal: PortalRefusal, host: ArgumentsHost): void {
    send(host.switchToHttp().getResponse<FastifyReply>(), refusal.status, refusal.page);
  }
}
