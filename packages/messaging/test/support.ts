import { randomUUID } from 'node:crypto';
import { Controller, Global, Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Ctx, EventPattern, Payload, type CustomTransportStrategy, type Server } from '@nestjs/microservices';
import { DataSource, type EntityManager } from 'typeorm';
import { BILLING_TOPIC, createEnvelope, type EventEnvelope } from '@storage/domain';
import { createDataSource, query, sql } from '@storage/persistence';
import { EventContext, MessagingModule, OutboxPublisher, ProcessedEvents } from '../src';

export const SERVICE = 'test-producer';

// The state a producer changes and the effect a consumer applies, for the tests only.
const CREATE_TEST_PAYMENTS = sql('CREATE TABLE IF NOT EXISTS test_payments (payment_uuid uuid PRIMARY KEY, rental uuid NOT NULL)');
const CREATE_TEST_EFFECTS = sql(
  'CREATE TABLE IF NOT EXISTS test_effects (seq bigserial PRIMARY KEY, consumer_group text NOT NULL, event_id text NOT NULL, rental uuid NOT NULL, amount int NOT NULL)',
);
const INSERT_TEST_PAYMENT = sql<never, [paymentUuid: string, rental: string]>('INSERT INTO test_payments (payment_uuid, rental) VALUES ($1, $2)');
/** A test consumer's effect of one payment event. */
export const INSERT_TEST_EFFECT = sql<never, [group: string, eventId: string, rental: string, amount: number]>(
  'INSERT INTO test_effects (consumer_group, event_id, rental, amount) VALUES ($1, $2, $3, $4)',
);
const EFFECTS = sql<{ event_id: string; rental: string; amount: number }, [group: string]>(
  'SELECT event_id, rental, amount FROM test_effects WHERE consumer_group = $1 ORDER BY seq',
);

export function payment(rentalRecordUuid: string, amountInPennies = 100, occurredAt = new Date()): EventEnvelope<'payment-recorded'> {
  return createEnvelope({
    type: 'payment-recorded',
    payload: { rentalRecordUuid, paymentUuid: randomUUID(), amountInPennies, balanceAfterInPennies: 0, paidOn: '2025-01-01' },
    occurredAt,
    portfolio: 'portfolio-1',
  });
}

export async function openDataSource(url: string): Promise<DataSource> {
  const dataSource = await createDataSource({ url, applicationName: 'messaging-test', poolSize: 20 }).initialize();
  await query(dataSource, CREATE_TEST_PAYMENTS);
  await query(dataSource, CREATE_TEST_EFFECTS);
  return dataSource;
}

/** A producer's transaction: the state change and its event together. */
export async function recordPayment(dataSource: DataSource, publisher: OutboxPublisher, envelope: EventEnvelope<'payment-recorded'>): Promise<void> {
  await dataSource.transaction(async (manager) => {
    await writeState(manager, envelope);
    await publisher.publish(manager, envelope);
  });
}

/** A producer's transaction left open, so a test decides when it commits or rolls back. */
export interface OpenTransaction {
  manager: EntityManager;
  commit: () => Promise<void>;
  rollback: () => Promise<void>;
}

export async function openTransaction(dataSource: DataSource): Promise<OpenTransaction> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  await runner.startTransaction();
  const end = async (how: 'commitTransaction' | 'rollbackTransaction'): Promise<void> => {
    try {
      await runner[how]();
    } finally {
      await runner.release();
    }
  };
  return { manager: runner.manager, commit: () => end('commitTransaction'), rollback: () => end('rollbackTransaction') };
}

/** A write before the event, as every api operation makes: the transaction takes its id here. */
export async function writeState(manager: EntityManager, envelope: EventEnvelope<'payment-recorded'>): Promise<void> {
  await query(manager, INSERT_TEST_PAYMENT, [envelope.payload.paymentUuid, envelope.payload.rentalRecordUuid]);
}

/** What the consumer under test does per event id: fail N times first, or always (poison). */
export interface Script {
  failuresLeft: Map<string, number>;
  poison: Set<string>;
  calls: { eventId: string; attempt: number; redelivered: boolean }[];
}

export const newScript = (): Script => ({ failuresLeft: new Map(), poison: new Set(), calls: [] });

/** The consumer of the tests: an ordinary @EventPattern handler applying its effect once through ProcessedEvents. */
export async function startConsumer(dataSource: DataSource, script: Script, strategy: Server & CustomTransportStrategy): Promise<INestMicroservice> {
  @Controller()
  class PaymentsConsumer {
    constructor(private readonly processed: ProcessedEvents) {}

    @EventPattern('payment-recorded')
    async onPayment(@Payload() event: EventEnvelope<'payment-recorded'>, @Ctx() context: EventContext): Promise<void> {
      script.calls.push({ eventId: event.eventId, attempt: context.attempt, redelivered: context.redelivery !== undefined });
      if (script.poison.has(event.eventId)) throw new Error(`cannot apply payment ${event.payload.paymentUuid}`);
      const left = script.failuresLeft.get(event.eventId) ?? 0;
      await this.processed.runOnce(context.group, event.eventId, async (manager) => {
        await query(manager, INSERT_TEST_EFFECT, [context.group, event.eventId, event.payload.rentalRecordUuid, event.payload.amountInPennies]);
        // Fails after writing, inside the transaction: the rollback must undo the effect.
        if (left > 0) {
          script.failuresLeft.set(event.eventId, left - 1);
          throw new Error('transient failure');
        }
      });
    }
  }

  @Global()
  @Module({ providers: [{ provide: DataSource, useValue: dataSource }], exports: [DataSource] })
  class TestDatabaseModule {}

  @Module({
    imports: [TestDatabaseModule, MessagingModule.forRoot({ service: SERVICE, partitions: 3, relay: false })],
    controllers: [PaymentsConsumer],
  })
  class ConsumerModule {}

  const app = await NestFactory.createMicroservice(ConsumerModule, { strategy, logger: ['error', 'warn'] });
  await app.listen();
  return app;
}

export const BILLING = BILLING_TOPIC;

export async function effects(dataSource: DataSource, group: string): Promise<{ event_id: string; rental: string; amount: number }[]> {
  return query(dataSource, EFFECTS, [group]);
}
