import type { DataSource } from 'typeorm';
import { parseEnvelope, type EventEnvelope, type EventType } from '@storage/domain';
import { query, sql } from '@storage/persistence';

/** Every event the outbox holds (for one rental when given), in log order, each validated. */
export async function outboxEvents(db: DataSource, rentalRecordUuid?: string): Promise<EventEnvelope[]> {
  const rows = await query(db, sql<{ envelope: unknown }>('SELECT envelope FROM outbox WHERE $1::text IS NULL OR key = $1 ORDER BY id'), [
    rentalRecordUuid ?? null,
  ]);
  return rows.map((row) => parseEnvelope(row.envelope));
}

/** The events of one type, narrowed. */
export function ofType<T extends EventType>(events: EventEnvelope[], type: T): EventEnvelope<T>[] {
  // TypeScript cannot narrow the envelope union by a generic type parameter; the filter does.
  return events.filter((event) => event.type === type) as EventEnvelope<T>[];
}

/** The status changes as `previous→new@date` strings, the shortest way to assert a sequence. */
export function statusTrail(events: EventEnvelope[]): string[] {
  return ofType(events, 'delinquency-status-change').map((event) => {
    const change = event.payload.delinquencyStatusChange;
    return `${change.delinquencyPreviousStatus ?? 'null'}→${change.delinquencyNewStatus}@${change.delinquencyStatusChangeDate}`;
  });
}
