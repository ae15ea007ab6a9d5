import { DataSource, type DataSourceOptions, type EntitySchema, type Logger, type MixedList } from 'typeorm';
import { MIGRATIONS } from './migrations';
import { SnakeNamingStrategy } from './naming-strategy';
import { POOL_IDLE_TIMEOUT_MS } from './pg-pool';

export const MIGRATIONS_TABLE = 'schema_migrations';

export interface DataSourceSettings {
  url: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities?: MixedList<Function | string | EntitySchema>;
  /** Shows up in pg_stat_activity, so a slow query names its service. */
  applicationName: string;
  poolSize?: number;
  /** Where migrations' own reports go (`queryRunner.connection.logger.log`); TypeORM's silent default otherwise. */
  logger?: Logger;
}

/** The one way a service builds its TypeORM data source: snake_case names, no synchronize, shared migrations. */
export function dataSourceOptions(settings: DataSourceSettings): DataSourceOptions {
  return {
    type: 'postgres',
    url: settings.url,
    entities: settings.entities ?? [],
    migrations: MIGRATIONS,
    migrationsTableName: MIGRATIONS_TABLE,
    migrationsTransactionMode: 'each',
    namingStrategy: new SnakeNamingStrategy(),
    // Generated uuids are PostgreSQL's built-in gen_random_uuid(); the schema (extensions included) is the migrations' job.
    uuidExtension: 'pgcrypto',
    installExtensions: false,
    synchronize: false,
    applicationName: settings.applicationName,
    extra: { max: settings.poolSize ?? 10, idleTimeoutMillis: POOL_IDLE_TIMEOUT_MS },
    ...(settings.logger ? { logger: settings.logger } : {}),
  };
}

export function createDataSource(settings: DataSourceSettings): DataSource {
  return new DataSource(dataSourceOptions(settings));
}
