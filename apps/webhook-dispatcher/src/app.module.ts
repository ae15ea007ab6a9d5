import { Module, type DynamicModule } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { MESSAGING_READINESS, MessagingModule, type MessagingReadinessCheck } from '@storage/messaging';
import { DatabaseModule, databaseReadiness, HealthModule, loggingModule } from '@storage/platform';
import type { DatabaseLocation } from '@storage/persistence';
import type { Config } from './config';
import { DeliveryModule } from './delivery/delivery.module';
import { EventsModule } from './events/events.module';
import { ListenModule } from './listen/listen.module';
import { PortalModule } from './portal/portal.module';
import { SERVICE_NAME, SERVICE_VERSION } from './service-info';

@Module({})
export class AppModule {
  static forRoot(config: Config, database: Pick<DatabaseLocation, 'url'>): DynamicModule {
    return {
      module: AppModule,
      imports: [
        loggingModule({ service: SERVICE_NAME, version: SERVICE_VERSION, level: config.LOG_LEVEL }),
        DatabaseModule.forRoot({ url: database.url, applicationName: SERVICE_NAME, poolSize: config.DATABASE_POOL_SIZE }),
        // The dispatcher publishes nothing, so it runs no outbox relay.
        MessagingModule.forRoot({ service: SERVICE_NAME, kafkaBrokers: config.KAFKA_BROKERS, partitions: config.KAFKA_TOPIC_PARTITIONS, relay: false }),
        HealthModule.forRoot({
          useFactory: (dataSource: DataSource, messaging: MessagingReadinessCheck[]) => [databaseReadiness(dataSource), ...messaging],
          inject: [DataSource, MESSAGING_READINESS],
        }),
        DeliveryModule.forRoot({
          allowedSubnets: config.WEBHOOK_ALLOWED_SUBNETS,
          concurrency: config.WEBHOOK_DELIVERY_CONCURRENCY,
          recordWaitMs: config.WEBHOOK_RECORD_WAIT_MS,
          secretKeys: config.WEBHOOK_SECRET_KEYS,
        }),
        EventsModule,
        PortalModule.forRoot({
          portalTokenSecret: config.PORTAL_TOKEN_SECRET,
          portalBaseUrl: config.PORTAL_BASE_URL,
          allowedSubnets: config.WEBHOOK_ALLOWED_SUBNETS,
        }),
        ListenModule.forRoot({ tokenSecret: config.PORTAL_TOKEN_SECRET }),
      ],
    };
  }
}
