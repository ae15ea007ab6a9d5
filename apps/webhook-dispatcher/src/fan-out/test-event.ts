import { webhookTestPayload, type PublicEventType } from '@storage/domain';
import type { FanOutEvent } from './fan-out';

/** Operation 19's message: a sample payload of the event type, marked `test: true`, sent to every subscribed endpoint regardless of filters. */
export function testEvent(portfolio: string, type: PublicEventType, now: Date): FanOutEvent {
  const payload = webhookTestPayload(type, now);
  return {
    eventId: payload.eventId,
    type,
    portfolio,
    filters: { facilityUuid: null, unitType: null, amenityUuids: [] },
    payload,
    test: true,
    orderingKey: null,
  };
}
