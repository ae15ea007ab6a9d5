import { Global, Module, type DynamicModule, type Provider } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { TOPICS } from '@storage/domain';
import { HandlerErrorFilter } from './consumer/handler-error.filter';
import { ProcessedEvents } from './consumer/processed-events';
import { kafkaReadiness, type MessagingReadinessCheck } from './kafka/kafka-readiness';
import { OutboxRelay } from './kafka/outbox-relay';
import { MESSAGING_SERVICE, OutboxPublisher } from './outbox-publisher';
import { OutboxPruner } from './retention/outbox-pruner';

export interface MessagingOptions {
  /** The producing service; names its outbox rows and its relay. */
  service: string;
  kafkaBrokers?: string | undefined;
  partitions: number;
  /** Run this service's outbox relay (Kafka mode only); with `outboxRetentionDays`, prune the outbox here too (both modes). */
  relay: boolean;
  /** Days delivered events stay in the outbox (OUTBOX_RETENTION_DAYS); unset or 0 keeps them forever. */
  outboxRetentionDays?: number;
  /** The service has @EventPattern handlers; a producer-only service skips the handler plumbing on its HTTP path. */
  consumes?: boolean;
}

/** Readiness checks of the messaging dependencies: Kafka when configured, none in embedded mode. */
export const MESSAGING_READINESS = Symbol('MESSAGING_READINESS');

@Global()
@Module({})
export class MessagingModule {
  static forRoot(options: MessagingOptions): DynamicModule {
    const brokers = options.kafkaBrokers;
    const relay: Provider[] =
      brokers && options.relay
        ? [
            {
              provide: OutboxRelay,
              inject: [DataSource],
              useFactory: (dataSource: DataSource) =>
                new OutboxRelay({
                  service: options.service,
                  kafkaBrokers: brokers,
                  partitions: options.partitions,
                  databaseUrl: databaseUrlOf(dataSource),
                  topics: TOPICS,
                  batchSize: 500,
                  pollIntervalMs: 1_000,
                  lagReportIntervalMs: 30_000,
                }),
            },
          ]
        : [];
    const retentionDays = options.outboxRetentionDays;
    const pruner: Provider[] =
      options.relay && retentionDays !== undefined && retentionDays !== 0
        ? [
            {
              provide: OutboxPruner,
              inject: [DataSource],
              useFactory: (dataSource: DataSource) =>
                new OutboxPruner({
                  service: options.service,
                  databaseUrl: databaseUrlOf(dataSource),
                  retentionDays,
                  mode: brokers ? 'kafka' : 'embedded',
                  batchSize: 5_000,
                  // Kafka checks retention every 5 minutes by default (log.retention.check.interval.ms).
                  intervalMs: 300_000,
                }),
            },
          ]
        : [];
    return {
      module: MessagingModule,
      providers: [
        { provide: MESSAGING_SERVICE, useValue: options.service },
        OutboxPublisher,
        ProcessedEvents,
        ...(options.consumes === false ? [] : [{ provide: APP_FILTER, useClass: HandlerErrorFilter }]),
        { provide: MESSAGING_READINESS, useFactory: (): MessagingReadinessCheck[] => (brokers ? [kafkaReadiness(brokers)] : []) },
        ...relay,
        ...pruner,
      ],
      exports: [OutboxPublisher, ProcessedEvents, MESSAGING_READINESS, ...relay.map(() => OutboxRelay)],
    };
  }
}

function databaseUrlOf(dataSource: DataSource): string {
  const url = 'url' in dataSource.options ? dataSource.options.url : undefined;
  if (!url) throw new Error('MessagingModule needs a DataSource configured with a url (as DatabaseModule builds it)');
  return url;
}
