import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventEnvelope, PublicEventType } from '@storage/domain';
import { OutboxPublisher } from '@storage/messaging';
import { loadRentalEventContext, rentalEnvelope, type AddedObject, type RentalEventContext } from '@storage/rental-events';
import { nextEventTime } from './event-time';

/** Writes a rental's tenant lifecycle events to the outbox, in the transaction that made the change. */
@Injectable()
export class LifecyclePublisher {
  constructor(@Inject(OutboxPublisher) private readonly outbox: OutboxPublisher) {}

  /** The rental's event context as the transaction sees it now (after its own writes). */
  async context(db: EntityManager, rentalRecordUuid: string): Promise<RentalEventContext> {
    const context = await loadRentalEventContext(db, rentalRecordUuid);
    if (context === null) throw new Error(`rental record ${rentalRecordUuid} vanished inside its own transaction`);
    return context;
  }

  /**
   * Emits `type` for the rental with its base payload as of now, after `previousEventAt` (the rental's
   * last_event_at, read under its lock), and records the event time on the rental. `added` may be built
   * from the context the event reports (what the rental is after the change). Returns that context.
   */
  async publish<T extends PublicEventType>(
    db: EntityManager,
    type: T,
    rentalRecordUuid: string,
    added: AddedObject<T> | ((context: RentalEventContext) => AddedObject<T>),
    previousEventAt: Date | null,
  ): Promise<RentalEventContext> {
    const occurredAt = nextEventTime(previousEventAt);
    const context = await this.context(db, rentalRecordUuid);
    const addedObject = typeof added === 'function' ? added(context) : added;
    // EventEnvelope<T> is one member of the EventEnvelope union; TypeScript cannot see that for a generic T.
    await this.outbox.publish(db, rentalEnvelope(type, context, addedObject, occurredAt) as EventEnvelope);
    await db.query('UPDATE rental_records SET last_event_at = $2 WHERE uuid = $1', [rentalRecordUuid, occurredAt]);
    return context;
  }
}
