import 'reflect-metadata';
import { TENANT_LIFECYCLE_TOPIC, WEBHOOK_COMMANDS_TOPIC } from '@storage/domain';
import { eventTransport } from '@storage/messaging';
import type { ServiceDefinition } from '@storage/platform';
import { portalSecretWarnings } from '@storage/webhooks';
import { AppModule } from './app.module';
import { loadServiceConfig, type Config } from './config';
import { SERVICE_NAME } from './service-info';

/** The webhook dispatcher as a service: run alone by `main.ts`, with the other two in one process by `npm start`. */
export const dispatcherService: ServiceDefinition<Config> = {
  name: SERVICE_NAME,
  loadConfig: loadServiceConfig,
  port: (config) => config.DISPATCHER_PORT,
  bootWarnings: (config) => portalSecretWarnings(config.PORTAL_TOKEN_SECRET),
  module: (config, database) => AppModule.forRoot(config, database),
  configure: (app, config, database) => {
    app.connectMicroservice(
      {
        strategy: eventTransport({
          group: config.DISPATCHER_CONSUMER_GROUP,
          topics: [TENANT_LIFECYCLE_TOPIC, WEBHOOK_COMMANDS_TOPIC],
          kafkaBrokers: config.KAFKA_BROKERS,
          partitions: config.KAFKA_TOPIC_PARTITIONS,
          databaseUrl: database.url,
          // Many rentals handled at once: their fan-outs share statements (FanOutBatcher).
          lanes: 64,
        }),
      },
      { inheritAppConfig: true },
    );
  },
};
