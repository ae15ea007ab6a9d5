import { Module, type DynamicModule } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { BusinessDayAdvancer, DelinquencyModule } from '@storage/delinquency';
import { MESSAGING_READINESS, MessagingModule, type MessagingReadinessCheck } from '@storage/messaging';
import type { DatabaseLocation } from '@storage/persistence';
import { DatabaseModule, databaseReadiness, HealthModule, loggingModule } from '@storage/platform';
import { AutopayDay } from './autopay/autopay-day';
import { EmbeddedPaymentPort } from './autopay/embedded-payment-port';
import { PAYMENT_PORT } from './autopay/payment.port';
import type { Config } from './config';
import { PaymentsController } from './payments/payments.controller';
import { BillingDay } from './run/billing-day';
import { BusinessDayRunner, RUN_CONCURRENCY } from './run/business-day-runner';
import { DailyTimer, TICK_SECONDS } from './run/daily-timer';
import { SERVICE_NAME, SERVICE_VERSION } from './service-info';

@Module({})
export class AppModule {
  static forRoot(config: Config, database: DatabaseLocation): DynamicModule {
    return {
      module: AppModule,
      imports: [
        loggingModule({ service: SERVICE_NAME, version: SERVICE_VERSION, level: config.LOG_LEVEL }),
        DatabaseModule.forRoot({ url: database.url, applicationName: SERVICE_NAME, poolSize: config.DATABASE_POOL_SIZE }),
        MessagingModule.forRoot({
          service: SERVICE_NAME,
          kafkaBrokers: config.KAFKA_BROKERS,
          partitions: config.KAFKA_TOPIC_PARTITIONS,
          relay: true,
          outboxRetentionDays: config.OUTBOX_RETENTION_DAYS,
        }),
        DelinquencyModule,
        HealthModule.forRoot({
          useFactory: (dataSource: DataSource, messaging: MessagingReadinessCheck[]) => [databaseReadiness(dataSource), ...messaging],
          inject: [DataSource, MESSAGING_READINESS],
        }),
      ],
      controllers: [PaymentsController],
      providers: [
        { provide: RUN_CONCURRENCY, useValue: config.SCHEDULER_CONCURRENCY },
        { provide: TICK_SECONDS, useValue: config.SCHEDULER_TICK_SECONDS },
        { provide: BusinessDayAdvancer, useFactory: (dataSource: DataSource) => new BusinessDayAdvancer(dataSource, SERVICE_NAME), inject: [DataSource] },
        // A processor's adapter replaces the embedded one here.
        { provide: PAYMENT_PORT, useClass: EmbeddedPaymentPort },
        BillingDay,
        AutopayDay,
        BusinessDayRunner,
        DailyTimer,
      ],
    };
  }
}
