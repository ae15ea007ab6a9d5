import type { Logger } from '@nestjs/common';
import type { MessageHandler, Server } from '@nestjs/microservices';
import { lastValueFrom } from 'rxjs';
import { isEventType, parseEnvelope, type EventType } from '@storage/domain';
import type { EventContext } from './event-context';
import { backoff, type RetryPolicy } from './retry-policy';
import { isTransient } from './transient-error';

export type Delivery =
  | { kind: 'handled' }
  /** No handler in this group for the type: the message is passed. */
  | { kind: 'ignored' }
  | { kind: 'dead'; reason: string; attempts: number };

export interface DeliveryTarget {
  server: Pick<Server, 'getHandlerByPattern' | 'transformToObservable'>;
  retry: RetryPolicy;
  logger: Logger;
  /** Aborted when the consumer stops: a message waiting out an outage is left for redelivery. */
  stopping: AbortSignal;
  /** Called before each pause of an outage, so a long wait keeps the consumer's place (Kafka: heartbeat). */
  keepAlive?: () => Promise<void>;
}

/** Thrown when the consumer stops while a message waits to be tried again: it was neither handled nor dead-lettered. */
class DeliveryAbandoned extends Error {}

/**
 * Hands one raw message to the `@EventPattern` handlers of its type: an invalid envelope is dead at once. A message
 * of a known type this group has no handler for is passed unchecked: checking it is the work of the groups that
 * handle it (the scheduler's payments group reads every lifecycle event of its topic).
 * A handler failing with a transient error (database or broker away, see `isTransient`) is retried with
 * backoff for as long as the outage lasts, never dead-lettered; any other failure is retried with backoff
 * and dead after the policy's last attempt. Never throws for a handler's error; throws DeliveryAbandoned when
 * the consumer stops during a pause between tries, and what `keepAlive` throws.
 */
export async function deliver(target: DeliveryTarget, raw: unknown, contextFor: (attempt: number) => EventContext): Promise<Delivery> {
  const type = typeOf(raw);
  if (type !== undefined && !handlerOf(target.server, type)) return { kind: 'ignored' };
  let envelope;
  try {
    envelope = parseEnvelope(raw);
  } catch (error) {
    return { kind: 'dead', reason: describe(error), attempts: 0 };
  }
  const handler = handlerOf(target.server, envelope.type);
  if (!handler) return { kind: 'ignored' };
  let failures = 0;
  let outages = 0;
  for (let attempt = 1; ; attempt++) {
    const context = contextFor(attempt);
    try {
      await runChain(target, handler, envelope, context);
      if (outages > 0) target.logger.log(`${context.group}: ${envelope.type} ${envelope.eventId} handled after the outage (attempt ${attempt})`);
      return { kind: 'handled' };
    } catch (error) {
      const failure = context.failure ?? error;
      const reason = describe(failure);
      const subject = `${context.group}: ${envelope.type} ${envelope.eventId}`;
      if (isTransient(failure)) {
        // An outage is not the message's fault: the consumer holds it (and its offset) until the dependency is back.
        const pause = backoff(target.retry, ++outages);
        target.logger.warn(`${subject} waits for a dependency (attempt ${attempt}), paused, retrying in ${pause} ms: ${reason}`);
        await target.keepAlive?.();
        await sleep(pause, target.stopping);
        continue;
      }
      if (++failures >= target.retry.attempts) return { kind: 'dead', reason, attempts: attempt };
      const pause = backoff(target.retry, failures);
      target.logger.warn(`${subject} failed (attempt ${attempt}), retrying in ${pause} ms: ${reason}`);
      await sleep(pause, target.stopping);
    }
  }
}

/** The message's type when it names one of the contract's, before the message is checked. */
function typeOf(raw: unknown): EventType | undefined {
  const type: unknown = typeof raw === 'object' && raw !== null ? (raw as { type?: unknown }).type : undefined;
  return isEventType(type) ? type : undefined;
}

/** Handlers per server and type: Nest looks a pattern up by trying JSON.parse on it, a thrown error per message. */
const handlers = new WeakMap<object, Map<string, MessageHandler | null>>();

/** The handler chain of a type; handlers are all registered before a transport listens, so the lookup is kept. */
function handlerOf(server: DeliveryTarget['server'], type: string): MessageHandler | null {
  let byType = handlers.get(server);
  if (!byType) handlers.set(server, (byType = new Map<string, MessageHandler | null>()));
  let handler = byType.get(type);
  if (handler === undefined) byType.set(type, (handler = server.getHandlerByPattern(type)));
  return handler;
}

/** Waits, or throws DeliveryAbandoned at once when the consumer stops. */
async function sleep(ms: number, stopping: AbortSignal): Promise<void> {
  if (!stopping.aborted) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      stopping.addEventListener('abort', done, { once: true });
      function done(): void {
        clearTimeout(timer);
        stopping.removeEventListener('abort', done);
        resolve();
      }
    });
  }
  if (stopping.aborted) throw new DeliveryAbandoned('consumer stopping: message left for redelivery');
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
