import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { createEnvelope, lifecycleEventId, parseEventPayload } from '@storage/domain';
import { OutboxPublisher } from '@storage/messaging';
import { testEvent } from '../dist/fan-out/test-event';
import { wallClock } from './wall-clock';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Commits moved-in events as a producing service does: each in a transaction of its own, written by
 * OutboxPublisher (the row and its NOTIFY). `committing(eventId, at)` (at by `wallClock`) is called as the
 * transaction's last statement returns, just before COMMIT, so a latency measured from it includes the commit.
 */
export class Producer {
  private readonly outbox: OutboxPublisher;
  private readonly template = testEvent('bench', 'moved-in', new Date()).payload as Record<string, unknown> & { unitRental: Record<string, unknown> };

  constructor(
    private readonly db: DataSource,
    source: string,
    private readonly committing: (eventId: string, at: number) => void,
  ) {
    this.outbox = new OutboxPublisher(source);
  }

  /** One event of a new rental (its own key, so rentals spread over the consumer's lanes). */
  async publish(portfolio: string): Promise<void> {
    const occurredAt = new Date();
    const rentalRecordUuid = randomUUID();
    const eventId = lifecycleEventId(rentalRecordUuid, occurredAt, 'moved-in');
    const payload = parseEventPayload('moved-in', { ...this.template, eventId, unitRental: { ...this.template.unitRental, rentalRecordUuid } });
    await this.db.transaction(async (manager) => {
      await this.outbox.publish(manager, createEnvelope({ type: 'moved-in', payload, occurredAt, portfolio }));
      this.committing(eventId, wallClock());
    });
  }

  /** Open loop: event i is started at start + i / rate whatever the earlier ones are doing. */
  async paced(portfolio: string, rate: number, count: number): Promise<void> {
    const begin = performance.now();
    const pending: Promise<void>[] = [];
    for (let i = 0; i < count; i += 1) {
      const wait = begin + (i * 1000) / rate - performance.now();
      if (wait > 0) await sleep(wait);
      pending.push(this.publish(portfolio));
    }
    await Promise.all(pending);
  }

  /** As fast as `concurrency` producers can commit. */
  async burst(portfolio: string, count: number, concurrency: number): Promise<void> {
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < count) {
        next += 1;
        await this.publish(portfolio);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  }
}
