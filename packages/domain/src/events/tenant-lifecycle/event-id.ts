import { isUuid } from '../../ids';
import { isPublicEventType, type PublicEventType } from '../event-types';

/** eventId of a public event: `{rentalRecordUuid}-{epoch milliseconds}-{event}` (ARCHITECTURE.md "Webhook delivery"). */
export function lifecycleEventId(rentalRecordUuid: string, occurredAt: Date, event: PublicEventType): string {
  if (!isUuid(rentalRecordUuid)) throw new RangeError(`rentalRecordUuid must be a UUID, got ${String(rentalRecordUuid)}`);
  const epochMs = occurredAt.getTime();
  // A negative or NaN time would put a stray '-' or 'NaN' into the id.
  if (!Number.isSafeInteger(epochMs) || epochMs < 0) throw new RangeError('occurredAt must be a valid time after 1970');
  return `${rentalRecordUuid}-${epochMs}-${event}`;
}

export interface LifecycleEventIdParts {
  rentalRecordUuid: string;
  epochMs: number;
  event: PublicEventType;
}

const EVENT_ID_PATTERN = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-(\d{1,16})-([a-z-]+)$/i;

/** The parts of a lifecycle eventId, or null when it is not one. */
export function parseLifecycleEventId(eventId: string): LifecycleEventIdParts | null {
  const match = EVENT_ID_PATTERN.exec(eventId);
  if (!match) return null;
  const [, rentalRecordUuid, epoch, event] = match;
  if (rentalRecordUuid === undefined || epoch === undefined || !isPublicEventType(event)) return null;
  return { rentalRecordUuid, epochMs: Number(epoch), event };
}
