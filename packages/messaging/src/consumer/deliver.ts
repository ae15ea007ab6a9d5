import type { Logger } from '@nestjs/common';
import type { MessageHandler, Server } from '@nestjs/microservices';
import { lastValueFrom } from 'rxjs';
import { parseEnvelope } from '@storage/domain';
import type { EventContext } from './event-context';
import { backoff, type RetryPolicy } from './retry-policy';

export type Delivery =
  | { kind: 'handled' }
  /** No handler in this group for the type: the message is passed. */
  | { kind: 'ignored' }
  | { kind: 'dead'; reason: string; attempts: number };

export interface DeliveryTarget {
  server: Pick<Server, 'getHandlerByPattern' | 'transformToObservable'>;
  retry: RetryPolicy;
  logger: Logger;
}

/**
 * Hands one raw message to the `@EventPattern` handlers of its type: an invalid envelope is dead at once,
 * a failing handler is retried with backoff and dead after the last attempt. Never throws for a handler's error.
 */
export async function deliver(target: DeliveryTarget, raw: unknown, contextFor: (attempt: number) => EventContext): Promise<Delivery> {
  let envelope;
  try {
    envelope = parseEnvelope(raw);
  } catch (error) {
    return { kind: 'dead', reason: describe(error), attempts: 0 };
  }
  const handler = target.server.getHandlerByPattern(envelope.type);
  if (!handler) return { kind: 'ignored' };
  for (let attempt = 1; ; attempt++) {
    const context = contextFor(attempt);
    try {
      await runChain(target, handler, envelope, context);
      return { kind: 'handled' };
    } catch (error) {
      const reason = describe(context.failure ?? error);
      if (attempt >= target.retry.attempts) return { kind: 'dead', reason, attempts: attempt };
      const pause = backoff(target.retry, attempt);
      target.logger.warn(`${context.group}: ${envelope.type} ${envelope.eventId} failed (attempt ${attempt}), retrying in ${pause} ms: ${reason}`);
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

/** Nest links several handlers of one pattern through `next`; every one of them must succeed. */
async function runChain(target: DeliveryTarget, first: MessageHandler, data: unknown, context: EventContext): Promise<void> {
  for (let handler: MessageHandler | undefined = first; handler; handler = handler.next as MessageHandler | undefined) {
    await lastValueFrom(target.server.transformToObservable(await handler(data, context)), { defaultValue: undefined });
  }
}

export function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && 'message' in error) return String(error.message);
  return String(error);
}
