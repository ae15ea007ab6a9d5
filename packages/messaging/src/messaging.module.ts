import { Global, Module, type DynamicModule, type Provider } from '@nestjs/common';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { DataSource } from 'typeorm';
import { TOPICS } from '@storage/domain';
import { HandlerErrorInterceptor } from './consumer/handler-error.interceptor';
import { ProcessedEvents } from './consumer/processed-events';
import { kafkaReadiness, type MessagingReadinessCheck } from './kafka/kafka-readiness';
import { OutboxRelay } from './kafka/outbox-relay';
import { MESSAGING_SERVICE, OutboxPublisher } from './outbox-publisher';

export interface MessagingOptions {
  /** The producing service; names its outbox rows and its relay. */
  service: string;
  kafkaBrokers?: string | undefined;
  partitions: number;
  /** Run this service's outbox relay (Kafka mode only). */
  relay: boolean;
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
    return {
      module: MessagingModule,
      providers: [
        { provide: MESSAGING_SERVICE, useValue: options.service },
        OutboxPublisher,
        ProcessedEvents,
        ...(options.consumes === false ? [] : [{ provide: APP_INTERCEPTOR, useClass: HandlerErrorInterceptor }]),
        { provide: MESSAGING_READINESS, useFactory: (): MessagingReadinessCheck[] => (brokers ? [kafkaReadiness(brokers)] : []) },
        ...relay,
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
