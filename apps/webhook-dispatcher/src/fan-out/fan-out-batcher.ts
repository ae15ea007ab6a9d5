import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../clock';
import { DeliveryEngine } from '../delivery/delivery-engine';
import type { ClaimedMessage } from '../delivery/message-store';
import { fanOutAndMark, type FanOutEvent } from './fan-out';
import { fanOutAndMarkMany, type MarkedEvent } from './fan-out-many';

/** Events per statement; more wait for the next one. */
const MAX_BATCH = 500;
/** Messages a statement may create claimed for this replica's engine (within the engine's free room). */
const MAX_CLAIMED = 1_000;

interface Waiting extends MarkedEvent {
  resolve: (created: number | undefined) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit of fan-outs: one statement at a time, each taking every event handed over while the previous
 * one ran (the consumer hands over events of different rentals at once). The messages are created claimed for
 * this replica's engine as far as it has room, and handed to it directly; the engine is woken (once per
 * statement) only for those beyond its room. An event alone goes at once, so a quiet stream waits for nothing.
 */
@Injectable()
export class FanOutBatcher {
  private queue: Waiting[] = [];
  private draining = false;

  constructor(
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(DeliveryEngine) private readonly engine: DeliveryEngine,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  /**
   * Fans the event out (with its processed-event mark) in the next statement. Resolves once its messages are committed:
   * how many, or undefined when it had been applied before.
   */
  fanOutBatched(group: string, key: string, event: FanOutEvent): Promise<number | undefined> {
    return new Promise((resolve, reject) => {
      this.queue.push({ group, key, event, resolve, reject });
      if (!this.draining) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    while (this.queue.length > 0) await this.run(this.queue.splice(0, MAX_BATCH));
    this.draining = false;
  }

  private async run(batch: Waiting[]): Promise<void> {
    const now = this.clock.now();
    const reservation = this.engine.reserve(MAX_CLAIMED);
    let results: (number | undefined | null)[];
    let claimed: ClaimedMessage[] = [];
    try {
      ({ created: results, claimed } = await fanOutAndMarkMany(this.dataSource, batch, now, reservation));
    } catch (error) {
      if (batch.length === 1) return batch[0].reject(error);
      // One bad event must not fail the others (they would be retried and dead-lettered with it): each alone.
      results = await Promise.all(
        batch.map((waiting) =>
          fanOutAndMark(this.dataSource, waiting, waiting.event, { now }).catch((alone: unknown) => {
            waiting.reject(alone);
            return null;
          }),
        ),
      );
    } finally {
      this.engine.deliverReserved(reservation, claimed);
    }
    const unclaimed = results.reduce<number>((sum, count) => sum + (count ?? 0), 0) - claimed.length;
    if (unclaimed > 0) this.engine.wake();
    batch.forEach((waiting, i) => {
      const created = results[i];
      if (created !== null) waiting.resolve(created);
    });
  }
}
