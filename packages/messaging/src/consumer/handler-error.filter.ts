import { Catch, type ArgumentsHost } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import { BaseRpcExceptionFilter } from '@nestjs/microservices';
import type { Observable } from 'rxjs';
import { EventContext } from './event-context';

/**
 * Nest's RPC exception filter turns a handler's error into "Internal server error"; this keeps the real error on
 * the EventContext first, so retries log it, `isTransient` sees it, and a dead letter carries it as its reason.
 * A filter rather than an interceptor: it runs only when a handler fails, whereas any interceptor puts Nest's
 * observable pipeline around every handler call (about a tenth of the dispatcher's CPU per event). Errors of HTTP
 * routes get Nest's default handling, as without it.
 */
@Catch()
export class HandlerErrorFilter extends BaseExceptionFilter {
  private readonly rpc = new BaseRpcExceptionFilter();

  override catch(exception: unknown, host: ArgumentsHost): void | Observable<unknown> {
    if (host.getType() !== 'rpc') return super.catch(exception, host);
    const context = host.switchToRpc().getContext<unknown>();
    if (context instanceof EventContext) context.failure = exception;
    return this.rpc.catch(exception, host);
  }
}
