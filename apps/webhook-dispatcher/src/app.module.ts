import { Module, type DynamicModule } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DatabaseModule, databaseReadiness, HealthModule, loggingModule } from '@storage/platform';
import type { DatabaseLocation } from '@storage/persistence';
import type { Config } from './config';
import { SERVICE_NAME, SERVICE_VERSION } from './service-info';

@Module({})
export class AppModule {
  static forRoot(config: Config, database: DatabaseLocation): DynamicModule {
    return {
      module: AppModule,
      imports: [
        loggingModule({ service: SERVICE_NAME, version: SERVICE_VERSION, level: config.LOG_LEVEL }),
        DatabaseModule.forRoot({ url: database.url, applicationName: SERVICE_NAME, poolSize: config.DATABASE_POOL_SIZE }),
        HealthModule.forRoot({ useFactory: (dataSource: DataSource) => [databaseReadiness(dataSource)], inject: [DataSource] }),
      ],
    };
  }
}
