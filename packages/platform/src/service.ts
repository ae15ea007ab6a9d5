import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { DatabaseNotMigrated, locateDatabase, pendingMigrationsAt, type DatabaseLocation } from '@storage/persistence';
import { ConfigError, type CommonConfig } from './config';
import { createHttpAdapter } from './http-adapter';
import { requestId } from './logging';
import { ServiceStartup } from './startup';

export interface ServiceDefinition<Config extends CommonConfig> {
  name: string;
  loadConfig: () => Config;
  port: (config: Config) => number;
  /** Builds the root module once the database is known. */
  module: (config: Config, database: DatabaseLocation) => unknown;
  /** Extra wiring before listening: microservice transports, global pipes, docs. */
  configure?: (app: NestFastifyApplication, config: Config, database: DatabaseLocation) => Promise<void> | void;
  bodyLimitBytes?: number;
  /** What to warn about at boot (development defaults of secrets), logged once the logger is up. */
  bootWarnings?: (config: Config) => string[];
}

/**
 * Boots a service: validated config (a bad variable stops it with a message naming the variable),
 * the database, the Nest application on Fastify with pino logs, graceful shutdown on SIGTERM.
 */
export async function runService<Config extends CommonConfig>(definition: ServiceDefinition<Config>): Promise<INestApplication> {
  let config: Config;
  try {
    config = definition.loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${definition.name}: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const database = await locateDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  await refuseUnmigrated(definition.name, database);
  const adapter = createHttpAdapter({ bodyLimit: definition.bodyLimitBytes ?? 1_048_576, trustProxy: config.TRUST_PROXY ?? false, genReqId: requestId });
  const app = await NestFactory.create<NestFastifyApplication>(definition.module(config, database) as never, adapter, {
    bufferLogs: true,
  });
  app.useLogger(app.get(Logger));
  for (const warning of definition.bootWarnings?.(config) ?? []) app.get(Logger).warn(warning);
  await definition.configure?.(app, config, database);
  // Listening first: health answers while the transports wait for a broker (ready only once they run).
  const startup = app.get(ServiceStartup, { strict: false });
  startup.starting();
  await app.listen(definition.port(config), config.HOST);
  stopGracefully(app, database);
  await app.startAllMicroservices();
  startup.started();
  return app;
}

/**
 * A service started on a database nothing migrated (a fresh clone run alone, a `DATABASE_URL` of a new database)
 * says what to run and stops, rather than failing at every query. Deployed, the schema is the migrate step's,
 * awaited before a service starts (`deploy/`'s init containers, `npm start`), so the check finds nothing pending.
 */
async function refuseUnmigrated(name: string, database: DatabaseLocation): Promise<void> {
  const pending = await pendingMigrationsAt(database.url, `${name}-schema-check`);
  if (pending.length === 0) return;
  process.stderr.write(`${name}: ${new DatabaseNotMigrated(pending).message}\n`);
  await database.release();
  process.exit(1);
}

/** On SIGTERM or SIGINT: stop taking work, finish what is under way, then stop an embedded server this process owns. */
function stopGracefully(app: INestApplication, database: DatabaseLocation): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    app.get(Logger).log(`${signal} received, shutting down`);
    void app
      .close()
      .then(() => database.release())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          process.stderr.write(`shutdown failed: ${String(error)}\n`);
          process.exit(1);
        },
      );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
