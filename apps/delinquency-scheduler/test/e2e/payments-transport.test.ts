import { randomUUID } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { BILLING_TOPIC, createEnvelope } from '@storage/domain';
import { eventTransport, OutboxPublisher } from '@storage/messaging';
import { describeWithKafka, eventually } from '@storage/testing';
import { query, sql } from '@storage/persistence';
import { PAYMENTS_GROUP } from '../../src/payments/payments.controller';
import { clearBalance, seedFacility, seedRental } from '../support/fixtures';
import { outboxEvents, statusTrail } from '../support/outbox';
import { schedulerTestBed, type SchedulerInstance } from '../support/harness';
import { createSchedulerApp, freshKafkaGroup } from '../support/scheduler-app';

/** The scheduler app consuming billing facts through the chosen transport. */
async function bootScheduler(url: string, kafkaBrokers: string | undefined): Promise<NestFastifyApplication> {
  const app = await createSchedulerApp(url, kafkaBrokers);
  const group = kafkaBrokers ? await freshKafkaGroup(kafkaBrokers, PAYMENTS_GROUP, [BILLING_TOPIC]) : PAYMENTS_GROUP;
  // With the consumer's own retry policy: the shared broker's billing topic also carries other test databases'
  // payments, which must be passed over as quickly as a deployment sharing a cluster needs.
  app.connectMicroservice({
    strategy: eventTransport({ group, topics: [BILLING_TOPIC], kafkaBrokers, databaseUrl: url, partitions: 3, pollIntervalMs: 200 }),
  });
  await app.startAllMicroservices();
  await app.init();
  return app;
}

function paymentsSuite(kafkaBrokers: string | undefined): void {
  let bed: Awaited<ReturnType<typeof schedulerTestBed>>;
  let scheduler: SchedulerInstance;
  let app: NestFastifyApplication | undefined;

  beforeAll(async () => {
    bed = await schedulerTestBed();
    scheduler = bed.scheduler;
    app = await bootScheduler(bed.database.url, kafkaBrokers);
  });
  afterAll(async () => {
    await app?.close();
    await bed.close();
  });

  it('resolves delinquency from a clearing payment-recorded fact, once, and ignores a partial one', async () => {
    const facility = await seedFacility(scheduler.dataSource);
    const partial = await seedRental(scheduler.dataSource, facility, { balanceInPennies: 10000, dueOn: '2025-03-01' });
    const cleared = await seedRental(scheduler.dataSource, facility, { balanceInPennies: 10000, dueOn: '2025-03-01' });
    await scheduler.run('2025-03-11');
    await clearBalance(scheduler.dataSource, cleared.rentalRecordUuid, '2025-03-11');

    // Written as the api would (through the outbox); the scheduler's own relay carries it to Kafka in that mode.
    // First a payment of a rental this database does not hold (another deployment's on a shared topic): passed over
    // at once, neither retried nor dead-lettered, and not holding up the payments after it.
    const publisher = new OutboxPublisher('delinquency-scheduler');
    const unknownRental = randomUUID();
    const eventIds: string[] = [];
    await scheduler.dataSource.transaction(async (manager) => {
      for (const [rentalRecordUuid, balanceAfterInPennies] of [
        [unknownRental, 0],
        [partial.rentalRecordUuid, 500],
        [cleared.rentalRecordUuid, 0],
      ] as const) {
        const envelope = createEnvelope({
          type: 'payment-recorded',
          payload: { rentalRecordUuid, paymentUuid: randomUUID(), amountInPennies: 11500, balanceAfterInPennies, paidOn: '2025-03-12' },
          occurredAt: new Date(),
          portfolio: facility.portfolioId,
        });
        eventIds.push(envelope.eventId);
        await publisher.publish(manager, envelope);
      }
    });

    await eventually(
      async () => {
        const trail = statusTrail(await outboxEvents(scheduler.dataSource, cleared.rentalRecordUuid));
        expect(trail).toEqual(['null→OVERDUE@2025-03-07', 'OVERDUE→OVERLOCK@2025-03-11', 'OVERLOCK→PAID@2025-03-12']);
      },
      { timeoutMs: 30_000 },
    );
    const [paid] = (await outboxEvents(scheduler.dataSource, cleared.rentalRecordUuid)).filter((event) => event.type === 'delinquency-status-change').slice(-1);
    expect(paid?.type === 'delinquency-status-change' && paid.payload.delinquencyStatusChange.paymentDate).toBe('2025-03-12');
    expect(statusTrail(await outboxEvents(scheduler.dataSource, partial.rentalRecordUuid))).toEqual(['null→OVERDUE@2025-03-07', 'OVERDUE→OVERLOCK@2025-03-11']);
    const processed = await query(
      scheduler.dataSource,
      sql<{ count: number }, [string, string[]]>('SELECT count(*)::int AS count FROM processed_events WHERE consumer_group = $1 AND event_id = ANY($2)'),
      [PAYMENTS_GROUP, eventIds],
    );
    // The unknown rental's payment too: handled (marked processed), not dead-lettered after retries. Only these three
    // are counted: through Kafka, the shared billing topic also brings payments that other suites' databases publish
    // meanwhile, passed over here just the same.
    expect(processed[0].count).toBe(3);
  });
}

describe('payments through the embedded transport', () => paymentsSuite(undefined));
describeWithKafka('payments through Kafka', (brokers) => paymentsSuite(brokers));
