import 'reflect-metadata';
import { runService } from '@storage/platform';
import { portalSecretWarnings } from '@storage/webhooks';
import { AppModule } from './app.module';
import { loadServiceConfig } from './config';
import { BODY_LIMIT_BYTES, configureHttp } from './http';
import { SERVICE_NAME } from './service-info';

void runService({
  name: SERVICE_NAME,
  loadConfig: () => loadServiceConfig(),
  port: (config) => config.API_PORT,
  bootWarnings: (config) => portalSecretWarnings(config.webhooks.portalTokenSecret),
  module: (config, database) => AppModule.forRoot(config, database),
  configure: (app) => configureHttp(app),
  bodyLimitBytes: BODY_LIMIT_BYTES,
});
