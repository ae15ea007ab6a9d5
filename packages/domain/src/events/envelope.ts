import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { uuidSchema } from '../ids';
import { parseEventPayload, type EventPayloads } from './event-payloads';
import { EVENT_TYPES, type EventType } from './event-types';
import { InvalidEvent } from './invalid-event';
import { parseLifecycleEventId } from './tenant-lifecycle/event-id';

/** What the webhook dispatcher matches subscriptions on (spec 4.10 filters); empty for internal messages. */
export const eventFiltersSchema = z.object({
  facilityUuid: uuidSchema.nullable(),
  /** The unit group's size-and-type unit type uuid. */
  unitType: uuidSchema.nullable(),
  amenityUuids: z.array(uuidSchema),
});
export type EventFilters = z.infer<typeof eventFiltersSchema>;

/** The envelope without its payload checked; parseEnvelope checks the payload against `type`. */
export const envelopeHeaderSchema = z.object({
  /** Unique per message; consumers dedupe on it. For public events it equals payload.eventId. */
  eventId: z.string().min(1),
  type: z.enum(EVENT_TYPES),
  /** ISO 8601 UTC. */
  occurredAt: z.iso.datetime(),
  portfolio: z.string().min(1),
  /** Partition key: the rentalRecordUuid (order per rental is kept), null for webhook commands. */
  key: uuidSchema.nullable(),
  filters: eventFiltersSchema,
  payload: z.unknown(),
});

/** Every message on every topic. `EventEnvelope` alone is the union over all types, discriminated by `type`. */
export type EventEnvelope<T extends EventType = EventType> = {
  [K in T]: Omit<z.infer<typeof envelopeHeaderSchema>, 'type' | 'payload'> & { type: K; payload: EventPayloads[K] };
}[T];

/**
 * Validates a message: the envelope, its payload against its type's schema, and that they agree (key is
 * the payload's rental; for public events eventId, time and facility match the payload).
 * Throws InvalidEvent listing every issue.
 */
export function parseEnvelope(raw: unknown): EventEnvelope {
  const header = envelopeHeaderSchema.safeParse(raw);
  if (!header.success) throw new InvalidEvent(header.error.issues);
  const envelope = { ...header.data, payload: parseEventPayload(header.data.type, header.data.payload) } as EventEnvelope;
  const disagreements = disagreementsWithPayload(envelope);
  if (disagreements.length > 0) throw new InvalidEvent(disagreements);
  return envelope;
}

export interface NewEnvelope<T extends EventType> {
  type: T;
  payload: EventPayloads[T];
  occurredAt: Date;
  portfolio: string;
  /** Defaults to payload.eventId for public events, a random UUID otherwise. */
  eventId?: string;
  /** The unit group's unit type and amenities, for public events; the facility comes from the payload. */
  unitType?: string | null;
  amenityUuids?: readonly string[];
}

/** Builds a valid envelope, deriving key, facility filter and (for public events) eventId from the payload. */
export function createEnvelope<T extends EventType>(input: NewEnvelope<T>): EventEnvelope<T> {
  const lifecycle = lifecyclePayload(input.payload);
  const envelope = {
    eventId: input.eventId ?? lifecycle?.eventId ?? randomUUID(),
    type: input.type,
    occurredAt: input.occurredAt.toISOString(),
    portfolio: input.portfolio,
    key: expectedKey(input.payload),
    filters: {
      facilityUuid: lifecycle?.unitRental.facilityUuid ?? null,
      unitType: input.unitType ?? null,
      amenityUuids: [...(input.amenityUuids ?? [])],
    },
    payload: input.payload,
  };
  // Parsing what we built refuses a producer bug before it reaches the outbox.
  return parseEnvelope(envelope) as EventEnvelope<T>;
}

type AnyPayload = EventPayloads[EventType];
type LifecyclePayload = Extract<AnyPayload, { unitRental: unknown }>;

function lifecyclePayload(payload: AnyPayload): LifecyclePayload | null {
  return 'unitRental' in payload ? payload : null;
}

/** The partition key a payload implies: its rental, or null for commands that concern no rental. */
function expectedKey(payload: AnyPayload): string | null {
  if ('unitRental' in payload) return payload.unitRental.rentalRecordUuid;
  if ('rentalRecordUuid' in payload) return payload.rentalRecordUuid;
  return null;
}

function disagreementsWithPayload(envelope: EventEnvelope): z.core.$ZodIssue[] {
  const issues: z.core.$ZodIssue[] = [];
  const mismatch = (path: string[], message: string, input: unknown): void => {
    issues.push({ code: 'custom', path, message, input });
  };
  if (envelope.key !== expectedKey(envelope.payload)) {
    mismatch(['key'], "key must be the payload's rentalRecordUuid (null for webhook commands)", envelope.key);
  }
  const payload = lifecyclePayload(envelope.payload);
  if (payload === null) return issues;

  // payload.event needs no check: the payload schema chosen by `type` fixes it.
  if (envelope.eventId !== payload.eventId) mismatch(['eventId'], 'eventId must equal payload.eventId', envelope.eventId);
  if (parseLifecycleEventId(payload.eventId)?.epochMs !== Date.parse(envelope.occurredAt)) {
    mismatch(['occurredAt'], 'occurredAt must be the time in payload.eventId', envelope.occurredAt);
  }
  if (envelope.filters.facilityUuid !== payload.unitRental.facilityUuid) {
    const facility = envelope.filters.facilityUuid;
    mismatch(['filters', 'facilityUuid'], 'filters.facilityUuid must be the facility of payload.unitRental', facility);
  }
  return issues;
}
