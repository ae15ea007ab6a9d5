import { randomUUID } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import { Kafka, logLevel } from 'kafkajs';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { BILLING_TOPIC, createEnvelope } from '@storage/domain';
import { eventTransport, OutboxPublisher } from '@storage/messaging';
import { describeWithKafka, eventually } from '@storage/testing';
import { AppModule } from '../../src/app.module';
import { loadServiceConfig } from '../../src/config';
import { PAYMENTS_GROUP } from '../../src/payments/payments.controller';
import { seedFacility, seedRental } from '../support/fixtures';
import { outboxEvents, statusTrail } from '../support/outbox';
import { schedulerTestBed, type SchedulerInstance } from '../support/harness';

/**
 * The Kafka topic outlives test databases and holds the payments of other runs' rentals: a group of its own,
 * starting at the end of the topic, sees only this test's.
 */
async function freshKafkaGroup(brokers: string): Promise<string> {
  const groupId = `${PAYMENTS_GROUP}.test-${randomUUID()}`;
  const admin = new Kafka({ brokers: brokers.split(','), logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    await admin.createTopics({ topics: [{ topic: BILLING_TOPIC, numPartitions: 3 }] });
    const ends = await admin.fetchTopicOffsets(BILLING_TOPIC);
    await admin.setOffsets({ groupId, topic: BILLING_TOPIC, partitions: ends.map(({ partition, high }) => ({ partition, offset: high })) });
  } finally {
    await admin.disconnect();
  }
  return groupId;
}

/** The scheduler app as main.ts wires it (timer off), consuming billing facts through the chosen transport. */
async function bootScheduler(url: string, kafkaBrokers: string | undefined): Promise<NestFastifyApplication> {
  const config = loadServiceConfig({ DATABASE_URL: url, SCHEDULER_TICK_SECONDS: '0', LOG_LEVEL: 'warn', ...(kafkaBrokers ? { KAFKA_BROKERS: kafkaBrokers } : {}) });
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config, { url, embedded: false, release: async () => undefined }),
    new FastifyAdapter(),
    { logger: ['error', 'warn'] },
  );
  const group = kafkaBrokers ? await freshKafkaGroup(kafkaBrokers) : PAYMENTS_GROUP;
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
    const partial = await seedRental(scheduler.dataSource, facility, { balanceInPennies: 10000, nextDueDate: '2025-03-01' });
    const cleared = await seedRental(scheduler.dataSource, facility, { balanceInPennies: 10000, nextDueDate: '2025-03-01' });
    await scheduler.run('2025-03-11');
    await scheduler.dataSource.query('UPDATE rental_records SET balance_in_pennies = 0 WHERE uuid = $1', [cleared.rentalRecordUuid]);

    // Written as the api would (through the outbox); the scheduler's own relay carries it to Kafka in that mode.
    const publisher = new OutboxPublisher('delinquency-scheduler');
    await scheduler.dataSource.transaction(async (manager) => {
      for (const [rental, balanceAfterInPennies] of [[partial, 500], [cleared, 0]] as const) {
        const envelope = createEnvelope({
          type: 'payment-recorded',
          payload: { rentalRecordUuid: rental.rentalRecordUuid, paymentUuid: randomUUID(), amountInPennies: 11500, balanceAfterInPennies, paidOn: '2025-03-12' },
          occurredAt: new Date(),
          portfolio: facility.portfolioId,
        });
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
    const processed: { count: number }[] = await scheduler.dataSource.query(
      'SELECT count(*)::int AS count FROM processed_events WHERE consumer_group = $1',
      [PAYMENTS_GROUP],
    );
    expect(processed[0].count).toBe(2);
  });
}

describe('payments through the embedded transport', () => paymentsSuite(undefined));
describeWithKafka('payments through Kafka', (brokers) => paymentsSuite(brokers));
