import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createHttpAdapter } from '@storage/platform';
import { createTestDatabase } from '@storage/testing';
import { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module';
import { createApiKey } from '../../src/auth/create-api-key';
import { loadServiceConfig, type Config } from '../../src/config';
import type { EmbeddedNotificationAdapter } from '../../src/notifications/embedded-notification.adapter';
import { NOTIFICATION_PORT } from '../../src/notifications/notification.port';
import { BODY_LIMIT_BYTES, configureHttp } from '../../src/http';
import { CatalogService } from '../../src/onboarding/catalog.service';
import { seedDemo } from '../../src/seed/demo-seed';
import { seedUuid } from '../../src/seed/seed-uuid';

export const PUBLIC_BASE_URL = 'https://storage.test';

export interface Reply {
  status: number;
  headers: Record<string, unknown>;
  // Response bodies are checked field by field in the tests; `any` keeps those checks short.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
  text: string;
}

export interface TestApi {
  db: DataSource;
  /** The api's DATA_DIR (a temporary directory): the demo key and the generated webhook secret key live there. */
  dataDir: string;
  /** Write key of the demo portfolio, read-only key of it, write key of portfolio `other` only, an admin key. */
  keys: { write: string; read: string; other: string; admin: string };
  /** Every route Fastify registered (HEAD routes it adds to GETs left out), as `METHOD /url`. */
  routes: string[];
  /** Listens on a free loopback port (once) and answers its base URL, for requests `inject` cannot make. */
  listen: () => Promise<string>;
  call: (method: string, url: string, options?: { key?: string | null; body?: unknown; headers?: Record<string, string>; payload?: string }) => Promise<Reply>;
  close: () => Promise<void>;
  /** What the notification port sent, in full (codes and links included), oldest first. */
  sentNotifications: () => { recipient: string; body: string; subject: string }[];
  /** Another replica of the api on the same database and settings, listening on a free loopback port: its base URL. */
  startReplica: () => Promise<{ url: string; close: () => Promise<void> }>;
}

/** The api as `main.ts` wires it, on the given database, not yet initialised. */
function createApp(config: Config, database: { url: string }): Promise<NestFastifyApplication> {
  return NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, database), createHttpAdapter({ bodyLimit: BODY_LIMIT_BYTES }), { logger: false });
}

/** Seeded ids by name (see src/seed/demo-data.ts). */
export const id = seedUuid;

/**
 * The api in-process on Fastify against its own migrated database, seeded with the demo portfolio. `env` adds
 * settings (rate limits) to the test's own.
 */
export async function startTestApi(env: Record<string, string> = {}): Promise<TestApi> {
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'api-test-'));
  const config = loadServiceConfig({ DATABASE_URL: database.url, DATA_DIR: dataDir, LOG_LEVEL: 'silent', PUBLIC_BASE_URL, DATABASE_POOL_SIZE: '4', ...env });
  const app = await createApp(config, database);
  const routes: string[] = [];
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push(`${method} ${route.url}`);
    });
  configureHttp(app);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  const db = app.get(DataSource);

  const { apiKey } = await seedDemo(db, { whenExists: 'refuse', dataDir, log: () => undefined });
  const read = await createApiKey(db, { portfolioIds: ['demo'], scope: 'read' });
  await db.transaction((manager) => new CatalogService().putPortfolio(manager, 'other', { name: 'Other Co.' }));
  const other = await createApiKey(db, { portfolioIds: ['other'], scope: 'write' });
  const admin = await createApiKey(db, { portfolioIds: null, scope: 'admin' });
  const keys = { write: apiKey!, read: read.key, other: other.key, admin: admin.key };
  let listening = false;

  return {
    db,
    dataDir,
    keys,
    routes,
    listen: async () => {
      if (!listening) {
        await app.listen(0, '127.0.0.1');
        listening = true;
      }
      return app.getUrl();
    },
    call: async (method, url, options = {}) => {
      const key = options.key === undefined ? keys.write : options.key;
      const headers: Record<string, string> = { ...(key === null ? {} : { 'x-api-key': key }), ...options.headers };
      const hasBody = options.body !== undefined || options.payload !== undefined;
      if (hasBody && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
      const response = await app.inject({
        method: method as 'GET',
        url,
        headers,
        ...(hasBody ? { payload: options.payload ?? JSON.stringify(options.body) } : {}),
      });
      let body: unknown = response.body;
      try {
        body = JSON.parse(response.body);
      } catch {
        // Not JSON: kept as text.
      }
      return { status: response.statusCode, headers: response.headers, body, text: response.body };
    },
    sentNotifications: () => app.get<EmbeddedNotificationAdapter>(NOTIFICATION_PORT, { strict: false }).mailbox,
    startReplica: async () => {
      const replica = await createApp(config, database);
      configureHttp(replica);
      await replica.listen(0, '127.0.0.1');
      return { url: await replica.getUrl(), close: () => replica.close() };
    },
    close: async () => {
      await app.close();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Asserts an RFC 9457 problem with this status, and returns it. */
export function expectProblem(reply: Reply, status: number, fields: string[] = []): { errors?: { field: string; message: string }[] } {
  expect(reply.status).toBe(status);
  expect(String(reply.headers['content-type'])).toMatch(/^application\/problem\+json/);
  expect(reply.body).toEqual(expect.objectContaining({ type: expect.any(String), title: expect.any(String), status, detail: expect.any(String) }));
  const problem = reply.body as { errors?: { field: string; message: string }[] };
  for (const field of fields) expect((problem.errors ?? []).map((error) => error.field)).toContain(field);
  return problem;
}

/** A JSON array from a response or a query, typed for the checks that follow. */
export const list = <T>(value: unknown): T[] => value as T[];

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** The signing link of the last message sent to `recipient`: kept nowhere else (the lease keeps its hash). */
export function sentSigningLink(sent: { recipient: string; body: string }[], recipient: string): string {
  const message = sent.findLast((notification) => notification.recipient === recipient);
  const link = /https?:\/\/\S+\/leases\/sign\/[\w-]+/.exec(message?.body ?? '')?.[0];
  if (link === undefined) throw new Error(`no signing link was sent to ${recipient}`);
  return link;
}
