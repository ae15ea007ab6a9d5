import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventEnvelope, PublicEventType } from '@storage/domain';
import { OutboxPublisher } from '@storage/messaging';
import {
  RENTAL_EVENT_CONTEXT_COLUMNS,
  RENTAL_EVENT_CONTEXT_JOINS,
  rentalEnvelope,
  rentalEventContextOf,
  type AddedObject,
  type RentalEventContext,
  type RentalEventContextRow,
} from '@storage/rental-events';
import { query, sql } from '@storage/persistence';
import { eventTimes, withEventTimeStamp } from '@storage/rentals';

const CONTEXT = sql<RentalEventContextRow, [string]>(
  `SELECT ${RENTAL_EVENT_CONTEXT_COLUMNS} FROM rental_records r ${RENTAL_EVENT_CONTEXT_JOINS} WHERE r.uuid = $1`,
  {
    prepared: 'api_rental_event_context',
  },
);

/*
 * The event time recorded on the rental and its context read, in one round trip. The context is as of the
 * statement's start, which the stamp does not change: it has the transaction's earlier writes, and
 * last_event_at is not part of it.
 */
const STAMP_AND_CONTEXT = sql<RentalEventContextRow, [string, Date]>(
  withEventTimeStamp(`SELECT ${RENTAL_EVENT_CONTEXT_COLUMNS} FROM rental_records r ${RENTAL_EVENT_CONTEXT_JOINS} WHERE r.uuid = $1`),
  { prepared: 'api_rental_event_stamp_and_context' },
);

/** Writes a rental's tenant lifecycle events to the outbox, in the transaction that made the change. */
@Injectable()
export class LifecyclePublisher {
  constructor(@Inject(OutboxPublisher) private readonly outbox: OutboxPublisher) {}

  /** The rental's event context as the transaction sees it now (after its own writes). */
  async context(db: EntityManager, rentalRecordUuid: string): Promise<RentalEventContext> {
    return contextOf(rentalRecordUuid, await query(db, CONTEXT, [rentalRecordUuid]));
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
    const [occurredAt] = eventTimes(previousEventAt, 1);
    const context = contextOf(rentalRecordUuid, await query(db, STAMP_AND_CONTEXT, [rentalRecordUuid, occurredAt]));
    const addedObject = typeof added === 'function' ? added(context) : added;
    // EventEnvelope<T> is one member of the EventEnvelope union; TypeScript cannot see that for a generic T.
    await this.outbox.publish(db, rentalEnvelope(type, context, addedObject, occurredAt) as EventEnvelope);
    return context;
  }
}

function contextOf(rentalRecordUuid: string, rows: RentalEventContextRow[]): RentalEventContext {
  const row = rows[0];
  if (row === undefined) throw new Error(`rental record ${rentalRecordUuid} vanished inside its own transaction`);
  return rentalEventContextOf(row);
}
