import { Module, type DynamicModule } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { MESSAGING_READINESS, MessagingModule, type MessagingReadinessCheck } from '@storage/messaging';
import { DatabaseModule, databaseReadiness, HealthModule, loggingModule } from '@storage/platform';
import type { DatabaseLocation } from '@storage/persistence';
import { AuthModule } from './auth';
import { ApiDelinquencyModule } from './delinquency/delinquency.module';
import type { Config } from './config';
import { LeaseSigningModule } from './lease-signing/lease-signing.module';
import { LeasesModule } from './leases/leases.module';
import { API_ENTITIES } from './model';
import { NotificationsListingModule, NotificationsMailboxModule, NotificationsModule } from './notifications/notifications.module';
import { OnboardingModule } from './onboarding/onboarding.module';
import { PortfolioModule } from './portfolio/portfolio.module';
import { RateLimitModule } from './rate-limit';
import { RentalsModule } from './rentals/rentals.module';
import { SERVICE_NAME, SERVICE_VERSION } from './service-info';
import { ShoppingModule } from './shopping/shopping.module';
import { WebhooksModule } from './webhooks/webhooks.module';

@Module({})
export class AppModule {
  static forRoot(config: Config, database: Pick<DatabaseLocation, 'url'>): DynamicModule {
    return {
      module: AppModule,
      imports: [
        loggingModule({ service: SERVICE_NAME, version: SERVICE_VERSION, level: config.LOG_LEVEL }),
        DatabaseModule.forRoot({ url: database.url, applicationName: SERVICE_NAME, poolSize: config.DATABASE_POOL_SIZE, entities: API_ENTITIES }),
        HealthModule.forRoot({
          useFactory: (dataSource: DataSource, messaging: MessagingReadinessCheck[]) => [databaseReadiness(dataSource), ...messaging],
          inject: [DataSource, MESSAGING_READINESS],
        }),
        RateLimitModule.forRoot(config.rateLimits),
        AuthModule,
        NotificationsModule,
        NotificationsMailboxModule.forRoot(config.mailboxDir),
        NotificationsListingModule,
        ShoppingModule.forRoot({ serverSecret: config.webhooks.portalTokenSecret }),
        PortfolioModule,
        LeasesModule.forRoot({ publicBaseUrl: config.PUBLIC_BASE_URL }),
        WebhooksModule.forRoot(config.webhooks),
        // The outbox for lifecycle events and billing facts, and in Kafka mode the relay that publishes it.
        MessagingModule.forRoot({
          service: SERVICE_NAME,
          kafkaBrokers: config.KAFKA_BROKERS,
          partitions: config.KAFKA_TOPIC_PARTITIONS,
          relay: true,
          outboxRetentionDays: config.OUTBOX_RETENTION_DAYS,
          consumes: false,
        }),
        RentalsModule,
        LeaseSigningModule.forRoot({ publicBaseUrl: config.PUBLIC_BASE_URL }),
        ApiDelinquencyModule,
        OnboardingModule,
      ],
    };
  }
}
