import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { PUBLIC_EVENT_TYPES, type EventEnvelope, type PublicEventType } from '@storage/domain';
import type { OutboxPublisher } from '@storage/messaging';
import { sampleEnvelope } from './events';
import type { ReceivedRequest } from './receiver';

/** Events of many rentals as producers emit them: round `k` holds every rental's `k`-th event. */
export interface RentalStreams {
  rounds: EventEnvelope<PublicEventType>[][];
  /** Each rental's event ids in emission order. */
  emitted: Map<string, string[]>;
}

export function rentalStreams(options: { rentals: number; perRental: number; portfolio: string }): RentalStreams {
  const rentals = Array.from({ length: options.rentals }, () => randomUUID());
  const start = Date.now() - 3_600_000;
  const emitted = new Map(rentals.map((rental) => [rental, [] as string[]]));
  const rounds = Array.from({ length: options.perRental }, (_, round) =>
    rentals.map((rentalRecordUuid, n) => {
      const type = PUBLIC_EVENT_TYPES[(round + n) % PUBLIC_EVENT_TYPES.length];
      const occurredAt = new Date(start + round * 1_000 + n);
      const envelope = sampleEnvelope(type, { portfolio: options.portfolio, rentalRecordUuid, occurredAt });
      emitted.get(rentalRecordUuid)!.push(envelope.eventId);
      return envelope;
    }),
  );
  return { rounds, emitted };
}

/** Emits the rounds through the outbox, one transaction per round. */
export async function publishRounds(db: DataSource, outbox: OutboxPublisher, streams: RentalStreams): Promise<void> {
  for (const round of streams.rounds) {
    await db.transaction(async (manager) => {
      for (const envelope of round) await outbox.publish(manager, envelope);
    });
  }
}

interface Delivered {
  rental: string;
  eventId: string;
}

function delivered(request: ReceivedRequest): Delivered {
  const { data } = JSON.parse(request.body) as { data: [{ eventId: string; unitRental: { rentalRecordUuid: string } }] };
  return { rental: data[0].unitRental.rentalRecordUuid, eventId: data[0].eventId };
}

/** Each rental's event ids in the order the receiver first saw them (`requests` in arrival order). */
export function firstReceipts(requests: readonly ReceivedRequest[]): Map<string, string[]> {
  const seen = new Set<string>();
  const byRental = new Map<string, string[]>();
  for (const request of requests) {
    const { rental, eventId } = delivered(request);
    if (seen.has(eventId)) continue;
    seen.add(eventId);
    byRental.set(rental, [...(byRental.get(rental) ?? []), eventId]);
  }
  return byRental;
}

/** The rentals whose events were not all received, or not in emission order: none when delivery kept the order. */
export function rentalsOutOfOrder(emitted: RentalStreams['emitted'], received: Map<string, string[]>): string[] {
  return [...emitted].filter(([rental, events]) => JSON.stringify(received.get(rental)) !== JSON.stringify(events)).map(([rental]) => rental);
}

/** Whether `count` events have been received at least once. */
export function distinctEvents(requests: readonly ReceivedRequest[]): number {
  return new Set(requests.map((request) => delivered(request).eventId)).size;
}
