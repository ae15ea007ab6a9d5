import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createEnvelope, lifecycleEventId, parseEventPayload } from '@storage/domain';
import { OutboxPublisher } from '@storage/messaging';
import { openLoop, wallClock } from '@storage/testing';
import { testEvent } from '../dist/fan-out/test-event';

/** The rental (the envelope's key, by which the dispatcher keeps order) of each event of a run, by its number. */
export type RentalOf = (event: number) => string;

/** Every event a rental of its own: nothing waits for another of its rental, and rentals spread over the consumer's lanes. */
export const newRentalEach: RentalOf = () => randomUUID();

/**
 * `perRental` events to each of count / perRental rentals, taken in turn, so every rental's events span the run (as
 * rentals' events interleave in production) rather than one rental's events following each other alone.
 */
export function rentalsInTurn(count: number, perRental: number): RentalOf {
  const rentals = Array.from({ length: Math.ceil(count / perRental) }, () => randomUUID());
  return (event) => rentals[event % rentals.length];
}

/**
 * Commits moved-in events as a producing service does: each in a transaction of its own, written by
 * OutboxPublisher (the row and its NOTIFY). `committing(eventId, at)` (at by `wallClock`) is called as the
 * transaction's last statement returns, just before COMMIT, so a latency measured from it includes the commit.
 */
export class Producer {
  private readonly outbox: OutboxPublisher;
  private readonly template = testEvent('bench', 'moved-in', new Date()).payload as Record<string, unknown> & { unitRental: Record<string, unknown> };

  /** The time of each rental's latest event: a rental's events need distinct times, an event id being rental, time and type. */
  private readonly lastEventAt = new Map<string, number>();

  constructor(
    private readonly db: DataSource,
    source: string,
    private readonly committing: (eventId: string, at: number) => void,
  ) {
    this.outbox = new OutboxPublisher(source);
  }

  /** One event of the rental `rentalRecordUuid` (by default a new one). */
  async publish(portfolio: string, rentalRecordUuid: string = randomUUID()): Promise<void> {
    const occurredAt = this.nextEventTime(rentalRecordUuid);
    const eventId = lifecycleEventId(rentalRecordUuid, occurredAt, 'moved-in');
    const payload = parseEventPayload('moved-in', { ...this.template, eventId, unitRental: { ...this.template.unitRental, rentalRecordUuid } });
    await this.db.transaction(async (manager) => {
      await this.outbox.publish(manager, createEnvelope({ type: 'moved-in', payload, occurredAt, portfolio }));
      this.committing(eventId, wallClock());
    });
  }

  private nextEventTime(rentalRecordUuid: string): Date {
    const at = Math.max(Date.now(), (this.lastEventAt.get(rentalRecordUuid) ?? 0) + 1);
    this.lastEventAt.set(rentalRecordUuid, at);
    return new Date(at);
  }

  /** Open loop: event i is started at start + i / rate whatever the earlier ones are doing. */
  paced(portfolio: string, rate: number, count: number): Promise<void> {
    return openLoop(rate, count, () => this.publish(portfolio));
  }

  /** As fast as `concurrency` producers can commit, event i of rental `rentalOf(i)`. */
  async burst(portfolio: string, count: number, concurrency: number, rentalOf: RentalOf = newRentalEach): Promise<void> {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < count) {
        const event = next;
        next += 1;
        await this.publish(portfolio, rentalOf(event));
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  }
}
