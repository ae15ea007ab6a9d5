import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { DatabaseNotMigrated, locateDatabase, pendingMigrationsAt, type DatabaseLocation } from '@storage/persistence';
import { ConfigError, type CommonConfig } from './config';
import { createHttpAdapter } from './http-adapter';
import { asService, requestId } from './logging';
import { ServiceStartup } from './startup';

export interface ServiceDefinition<Config extends CommonConfig> {
  name: string;
  /** From `env` (default process.env), or a ConfigError naming each variable at fault. */
  loadConfig: (env?: NodeJS.ProcessEnv) => Config;
  port: (config: Config) => number;
  /** Builds the root module once the database is known. */
  module: (config: Config, database: DatabaseLocation) => unknown;
  /** Extra wiring before listening: microservice transports, global pipes, docs. */
  configure?: (app: NestFastifyApplication, config: Config, database: DatabaseLocation) => Promise<void> | void;
  bodyLimitBytes?: number;
  /** What to warn about at boot (development defaults of secrets), logged once the logger is up. */
  bootWarnings?: (config: Config) => string[];
}

/** A service booted (`bootService`): listening, its event transports started or starting. */
export interface BootedService {
  name: string;
  app: INestApplication;
  /** Stops taking work, finishes what is under way, then releases the database (stops an embedded server it started). */
  close: () => Promise<void>;
}

export interface BootOptions {
  /** Called once the service listens, before its event transports start (which may wait for a broker). */
  listening?: (service: BootedService) => void;
  /** Nest's default (true) aborts the process when a module fails to initialise; false throws instead. */
  abortOnError?: boolean;
}

/**
 * Boots a service in this process: validated config (a `ConfigError` names the variable), the database (a
 * `DatabaseNotMigrated` says what to run), the Nest application on Fastify with pino logs, listening, then its
 * event transports. Its logs name it, even with other services in the same process (`asService`). What it opened
 * is closed again when it fails. Process concerns (signals, exit) are the caller's: `runService` for a service alone.
 */
export function bootService<Config extends CommonConfig>(definition: ServiceDefinition<Config>, options: BootOptions = {}): Promise<BootedService> {
  return asService(definition.name, () => boot(definition, options));
}

async function boot<Config extends CommonConfig>(definition: ServiceDefinition<Config>, options: BootOptions): Promise<BootedService> {
  const config = definition.loadConfig();
  const database = await locateDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  let app: NestFastifyApplication | undefined;
  try {
    const pending = await pendingMigrationsAt(database.url, `${definition.name}-schema-check`);
    if (pending.length > 0) throw new DatabaseNotMigrated(pending);
    const adapter = createHttpAdapter({ bodyLimit: definition.bodyLimitBytes ?? 1_048_576, trustProxy: config.TRUST_PROXY ?? false, genReqId: requestId });
    app = await NestFactory.create<NestFastifyApplication>(definition.module(config, database) as never, adapter, {
      bufferLogs: true,
      ...(options.abortOnError === undefined ? {} : { abortOnError: options.abortOnError }),
    });
    app.useLogger(app.get(Logger));
    for (const warning of definition.bootWarnings?.(config) ?? []) app.get(Logger).warn(warning);
    await definition.configure?.(app, config, database);
    // Listening first: health answers while the transports wait for a broker (ready only once they run).
    const startup = app.get(ServiceStartup, { strict: false });
    startup.starting();
    await app.listen(definition.port(config), config.HOST);
    const opened = app;
    const service: BootedService = {
      name: definition.name,
      app: opened,
      close: () => asService(definition.name, () => opened.close().then(() => database.release())),
    };
    options.listening?.(service);
    await app.startAllMicroservices();
    startup.started();
    return service;
  } catch (error) {
    await app?.close().catch(() => undefined);
    await database.release();
    throw error;
  }
}

/**
 * Runs a service alone in its process (`node dist/main.js`, a Kubernetes pod): boots it, and stops it gracefully on
 * SIGTERM or SIGINT. A bad variable or an unmigrated database stops it with a message naming the service.
 */
export async function runService<Config extends CommonConfig>(definition: ServiceDefinition<Config>): Promise<INestApplication> {
  try {
    const service = await bootService(definition, { listening: stopGracefully });
    return service.app;
  } catch (error) {
    // A service started on a database nothing migrated (a fresh clone run alone, a `DATABASE_URL` of a new database)
    // says what to run and stops, rather than failing at every query. Deployed, the schema is the migrate step's,
    // awaited before a service starts (`deploy/`'s init containers, `npm start`), so the check finds nothing pending.
    if (error instanceof ConfigError || error instanceof DatabaseNotMigrated) {
      process.stderr.write(`${definition.name}: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

/** On SIGTERM or SIGINT: stop taking work, finish what is under way, then stop an embedded server this process owns. */
function stopGracefully(service: BootedService): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    service.app.get(Logger).log(`${signal} received, shutting down`);
    void service.close().then(
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
