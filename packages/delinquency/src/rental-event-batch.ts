import type { EntityManager } from 'typeorm';
import { createEnvelope, type ChargePostedPayload, type EventEnvelope } from '@storage/domain';
import type { OutboxPublisher } from '@storage/messaging';
import { loadRentalEventContext, rentalEnvelope, type AddedObject, type RentalEventContext } from '@storage/rental-events';

/** An event this package emits for a rental, before its context and time are known. */
export type PendingEvent =
  | { type: 'delinquency-status-change'; added: AddedObject<'delinquency-status-change'> }
  | { type: 'auction'; added: AddedObject<'auction'> }
  | { type: 'moved-out'; added: AddedObject<'moved-out'> }
  | { type: 'charge-posted'; payload: ChargePostedPayload };

/**
 * Publishes a rental's events through the outbox in the caller's transaction, in order, each at its time.
 * The context is read after the caller's writes, so every payload shows the rental as the change left it.
 */
export async function publishRentalEvents(
  manager: EntityManager,
  publisher: OutboxPublisher,
  rentalRecordUuid: string,
  events: readonly PendingEvent[],
  times: readonly Date[],
): Promise<void> {
  if (events.length === 0) return;
  const context = await loadRentalEventContext(manager, rentalRecordUuid);
  if (context === null) throw new Error(`Rental record ${rentalRecordUuid} vanished inside its own transaction`);
  for (const [index, event] of events.entries()) {
    const at = times[index];
    if (at === undefined) throw new Error('One time is needed per event');
    await publisher.publish(manager, envelopeOf(event, context, at));
  }
}

export function envelopeOf(event: PendingEvent, context: RentalEventContext, at: Date): EventEnvelope {
  switch (event.type) {
    case 'delinquency-status-change':
      return rentalEnvelope(event.type, context, event.added, at);
    case 'auction':
      return rentalEnvelope(event.type, context, event.added, at);
    case 'moved-out':
      return rentalEnvelope(event.type, context, event.added, at);
    case 'charge-posted':
      return createEnvelope({ type: event.type, payload: event.payload, occurredAt: at, portfolio: context.portfolio });
  }
}
