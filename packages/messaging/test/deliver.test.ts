import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import type { MessageHandler } from '@nestjs/microservices';
import { of } from 'rxjs';
import { EventContext } from '../src';
import { deliver, type DeliveryTarget } from '../src/consumer/deliver';
import { payment } from './support';

/** A group whose only handler is for `payment-recorded`, as the delinquency scheduler's payments group. */
function paymentsGroup(handled: unknown[]): DeliveryTarget {
  const handler = (async (data: unknown) => void handled.push(data)) as MessageHandler;
  return {
    server: { getHandlerByPattern: (type: string) => (type === 'payment-recorded' ? handler : null), transformToObservable: (value) => of(value) },
    retry: { attempts: 1, backoffMs: 1, maxBackoffMs: 1 },
    logger: new Logger('deliver-test'),
    stopping: new AbortController().signal,
  };
}

const context = (attempt: number) => new EventContext('payments', 'tenant-lifecycle', 'log:1', attempt, undefined);

describe('deliver', () => {
  it('hands a valid message of a handled type to its handler', async () => {
    const handled: unknown[] = [];
    const event = payment(randomUUID());
    expect(await deliver(paymentsGroup(handled), JSON.parse(JSON.stringify(event)), context)).toEqual({ kind: 'handled' });
    expect(handled).toEqual([event]);
  });

  it('dead-letters a message of a handled type that breaks its contract', async () => {
    const outcome = await deliver(paymentsGroup([]), { ...payment(randomUUID()), payload: {} }, context);
    expect(outcome).toEqual({ kind: 'dead', reason: expect.stringContaining('Invalid event'), attempts: 0 });
  });

  it('passes a message of a type the group does not handle without checking it: it is not the group to dead-letter it', async () => {
    // The scheduler's payments group reads every lifecycle event of its topic: a rent change costs it a lookup, not a parse.
    const rentChange = { eventId: randomUUID(), type: 'rent-change', payload: { not: 'checked here' } };
    expect(await deliver(paymentsGroup([]), rentChange, context)).toEqual({ kind: 'ignored' });
  });

  it('dead-letters a message that names no type any group could handle', async () => {
    for (const raw of [{ eventId: randomUUID(), type: 'no-such-type' }, { eventId: randomUUID() }, 'not an envelope']) {
      expect(await deliver(paymentsGroup([]), raw, context)).toEqual({ kind: 'dead', reason: expect.stringContaining('Invalid event'), attempts: 0 });
    }
  });
});
