import { createEnvelope, lifecycleEventId, type BasePayload, type EventEnvelope, type EventPayloads, type PublicEventType } from '@storage/domain';
import type { RentalEventContext } from './rental-event-context';

/** What an event adds to the base payload (spec 6.3): `{}` for moved-in and moved-out, `{ rentChange }`… */
export type AddedObject<T extends PublicEventType> = Omit<EventPayloads[T], keyof BasePayload>;

/**
 * The complete, validated envelope of a tenant lifecycle event: base payload from `context`, the event's
 * added object, `eventId` = `{rentalRecordUuid}-{epoch ms of occurredAt}-{event}`, portfolio and filters.
 * Two events of one type for one rental need distinct `occurredAt` milliseconds (their ids would clash).
 */
export function rentalEnvelope<T extends PublicEventType>(type: T, context: RentalEventContext, added: AddedObject<T>, occurredAt: Date): EventEnvelope<T> {
  const eventId = lifecycleEventId(context.base.unitRental.rentalRecordUuid, occurredAt, type);
  // The spread has exactly the fields of EventPayloads[T]; TypeScript cannot follow Omit through the generic.
  const payload = { event: type, eventId, ...context.base, ...added } as unknown as EventPayloads[T];
  return createEnvelope({
    type,
    payload,
    occurredAt,
    portfolio: context.portfolio,
    unitType: context.filters.unitType,
    amenityUuids: context.filters.amenityUuids,
  });
}
