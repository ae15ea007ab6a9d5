import { Global, Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { createDataSource, type DataSourceSettings, query, sql } from '@storage/persistence';
import type { ReadinessCheck } from './health';

/** Provides the service's one TypeORM DataSource, closed when the application shuts down. */
@Global()
@Module({})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  static forRoot(settings: DataSourceSettings): DynamicModule {
    return {
      module: DatabaseModule,
      providers: [
        {
          provide: DataSource,
          useFactory: async () => createDataSource(settings).initialize(),
        },
      ],
      exports: [DataSource],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}

export function databaseReadiness(dataSource: DataSource): ReadinessCheck {
  return { name: 'database', check: async () => void (await query(dataSource, sql<unknown>('SELECT 1'))) };
}
