import 'reflect-metadata';
import { BILLING_TOPIC } from '@storage/domain';
import { eventTransport } from '@storage/messaging';
import type { ServiceDefinition } from '@storage/platform';
import { AppModule } from './app.module';
import { loadServiceConfig, type Config } from './config';
import { PAYMENTS_GROUP } from './payments/payments.controller';
import { SERVICE_NAME } from './service-info';

/** The delinquency scheduler as a service: run alone by `main.ts`, with the other two in one process by `npm start`. */
export const schedulerService: ServiceDefinition<Config> = {
  name: SERVICE_NAME,
  loadConfig: loadServiceConfig,
  port: (config) => config.SCHEDULER_PORT,
  module: (config, database) => AppModule.forRoot(config, database),
  configure: (app, config, database) => {
    app.connectMicroservice(
      {
        strategy: eventTransport({
          group: PAYMENTS_GROUP,
          topics: [BILLING_TOPIC],
          kafkaBrokers: config.KAFKA_BROKERS,
          partitions: config.KAFKA_TOPIC_PARTITIONS,
          databaseUrl: database.url,
        }),
      },
      { inheritAppConfig: true },
    );
  },
};
