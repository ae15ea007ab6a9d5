import 'reflect-metadata';
import { runService } from '@storage/platform';
import { AppModule } from './app.module';
import { loadServiceConfig } from './config';
import { SERVICE_NAME } from './service-info';

void runService({
  name: SERVICE_NAME,
  loadConfig: () => loadServiceConfig(),
  port: (config) => config.SCHEDULER_PORT,
  module: (config, database) => AppModule.forRoot(config, database),
});
