import { randomUUID } from 'node:crypto';
import { createEnvelope, lifecycleEventId, parseEventPayload, type EventEnvelope, type PublicEventType } from '@storage/domain';
import { lifecycleFanOutEvent, type FanOutEvent } from '../../src/fan-out/fan-out';
import { testEvent } from '../../src/fan-out/test-event';

export interface SampleEventOptions {
  portfolio?: string;
  facilityUuid?: string;
  unitType?: string | null;
  amenityUuids?: string[];
  occurredAt?: Date;
  /** The rental the event is about; a fresh one by default. */
  rentalRecordUuid?: string;
}

/** A valid public event of the type (checked against the domain contract), on a fresh rental unless told which. */
export function sampleEnvelope(type: PublicEventType, options: SampleEventOptions = {}): EventEnvelope<PublicEventType> {
  const occurredAt = options.occurredAt ?? new Date(Date.now() - Math.floor(Math.random() * 1e6));
  const rentalRecordUuid = options.rentalRecordUuid ?? randomUUID();
  const template = testEvent('unused', type, occurredAt).payload as Record<string, unknown> & { unitRental: Record<string, unknown> };
  const payload = parseEventPayload(type, {
    ...template,
    eventId: lifecycleEventId(rentalRecordUuid, occurredAt, type),
    tenantUuid: randomUUID(),
    unitRental: {
      ...template.unitRental,
      rentalRecordUuid,
      facilityUuid: options.facilityUuid ?? randomUUID(),
      unitGroupUuid: randomUUID(),
      unitUuid: randomUUID(),
    },
  });
  return createEnvelope<PublicEventType>({
    type,
    payload,
    occurredAt,
    portfolio: options.portfolio ?? 'acme',
    unitType: options.unitType ?? null,
    amenityUuids: options.amenityUuids ?? [],
  });
}

export const sampleEvent = (type: PublicEventType, options: SampleEventOptions = {}): FanOutEvent => lifecycleFanOutEvent(sampleEnvelope(type, options));
