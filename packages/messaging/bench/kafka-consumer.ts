/**
 * A Kafka consumer of the group `GROUP` on the topic `TOPIC` as its own process, printing `handled <eventId>` per
 * event: `bench:events` SIGKILLs it (no shutdown hook runs, the group is never left) and starts it again.
 */
import type { EventEnvelope } from '@storage/domain';
import { describe } from '../dist/consumer/deliver';
import { eventTransport } from '../dist/event-transport';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

const transport = eventTransport({
  group: required('GROUP'),
  topics: [required('TOPIC')],
  kafkaBrokers: required('KAFKA_BROKERS'),
  databaseUrl: required('DATABASE_URL'),
  partitions: 3,
});
transport.addHandler('payment-recorded', async (event: EventEnvelope<'payment-recorded'>) => void process.stdout.write(`handled ${event.eventId}\n`), true);
transport.listen((error?: unknown) => {
  if (error === undefined) return;
  process.stderr.write(`consumer failed: ${describe(error)}\n`);
  process.exit(1);
});
