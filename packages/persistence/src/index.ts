export { createDataSource, dataSourceOptions, MIGRATIONS_TABLE, type DataSourceSettings } from './data-source';
export { CONNECTION_URL_RULE, isConnectionUrl, locateDatabase, type DatabaseLocation } from './database-location';
export {
  connectionUrl,
  embeddedInfoPath,
  isPort,
  isReachable,
  PORT_RULE,
  readEmbeddedInfo,
  startEmbeddedPostgres,
  type EmbeddedPostgresOptions,
  type EmbeddedServerInfo,
  type RunningEmbeddedPostgres,
} from './embedded-postgres';
export { ephemeralPortsFrom, freePort } from './free-port';
export { migrate } from './migrate';
export { createPool, POOL_IDLE_TIMEOUT_MS } from './pg-pool';
export { SnakeNamingStrategy } from './naming-strategy';
export { upsertOwned, type OwnedUpsert, type UpsertOutcome } from './owned-upsert';
export { CreatedAt, pennies, UpdatedAt, UuidPrimaryColumn } from './columns';
export { References } from './references';
export { ENTITY_GLOBS, schemaDifference, type SchemaDifference, type SchemaStatement } from './schema-difference';
export { assertMigrated, DatabaseNotMigrated, MIGRATE_COMMAND, pendingMigrations, pendingMigrationsAt } from './pending-migrations';
export { sql, type Sql } from './sql';
export { fragment, type SqlFragment } from './sql-fragment';
export { pgConnection, query, type Queryable } from './query';
export { bind, transactionInOneRoundTrip, type Answers, type Bound, type Transaction } from './transaction-in-one-round-trip';
export { uniqueViolation, type UniqueViolation } from './unique-violation';
export { passingFailureOf, wraps, type PassingFailure } from './passing-failure';
