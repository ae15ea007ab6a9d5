import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { tap, type Observable } from 'rxjs';
import { EventContext } from './event-context';

/**
 * Nest's RPC exception filter turns a handler's error into "Internal server error"; this keeps the real
 * error on the EventContext so retries log it and a dead letter carries it as its reason.
 */
@Injectable()
export class HandlerErrorInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const rpc = context.getType() === 'rpc' ? context.switchToRpc().getContext<unknown>() : undefined;
    if (!(rpc instanceof EventContext)) return next.handle();
    return next.handle().pipe(tap({ error: (error: unknown) => (rpc.failure = error) }));
  }
}
