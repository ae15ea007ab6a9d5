import 'reflect-metadata';
import type { ServiceDefinition } from '@storage/platform';
import { portalSecretWarnings } from '@storage/webhooks';
import { AppModule } from './app.module';
import { loadServiceConfig, type Config } from './config';
import { BODY_LIMIT_BYTES, configureHttp } from './http';
import { SERVICE_NAME } from './service-info';

/** The api as a service: run alone by `main.ts`, with the other two in one process by `npm start`. */
export const apiService: ServiceDefinition<Config> = {
  name: SERVICE_NAME,
  loadConfig: loadServiceConfig,
  port: (config) => config.API_PORT,
  bootWarnings: (config) => portalSecretWarnings(config.webhooks.portalTokenSecret),
  module: (config, database) => AppModule.forRoot(config, database),
  configure: (app) => configureHttp(app),
  bodyLimitBytes: BODY_LIMIT_BYTES,
};
