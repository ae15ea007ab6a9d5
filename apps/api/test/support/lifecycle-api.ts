import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createHttpAdapter } from '@storage/platform';
import { createTestDatabase, freePort } from '@storage/testing';
import { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module';
import { loadServiceConfig } from '../../src/config';
import { BODY_LIMIT_BYTES, configureHttp } from '../../src/http';
import type { EmbeddedNotificationAdapter } from '../../src/notifications/embedded-notification.adapter';
import { NOTIFICATION_PORT } from '../../src/notifications/notification.port';
import { seedDemo } from '../../src/seed/demo-seed';
import type { Reply } from './test-api';

export interface LifecycleApi {
  db: DataSource;
  /** The api's DATA_DIR (a temporary directory): the demo key, and the local mailbox of every message sent (`mailbox/`). */
  dataDir: string;
  /** Where the api listens (and what signing links start with): a browser can follow them. */
  baseUrl: string;
  /** `headers` are sent beside the key (and the content type of a body). */
  call: (method: string, url: string, body?: unknown, headers?: Record<string, string>) => Promise<Reply>;
  /** Posts the lease page's form as a browser would; `headers` add what a browser sends beside it (Origin, Sec-Fetch-Site). */
  postForm: (url: string, form: Record<string, string>, headers?: Record<string, string>) => Promise<Reply>;
  /** What the notification port sent, in full (signing links included), oldest first. */
  sentNotifications: () => { recipient: string; body: string; subject: string }[];
  close: () => Promise<void>;
}

/**
 * The api listening on a real port against its own migrated database, seeded with the demo portfolio,
 * with the write key of `demo` on every call. With `kafkaBrokers` the outbox relay publishes to Kafka.
 */
export async function startLifecycleApi(options: { kafkaBrokers?: string } = {}): Promise<LifecycleApi> {
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'lifecycle-test-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const config = loadServiceConfig({
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    PUBLIC_BASE_URL: baseUrl,
    DATABASE_POOL_SIZE: '6',
    ...(options.kafkaBrokers ? { KAFKA_BROKERS: options.kafkaBrokers, KAFKA_TOPIC_PARTITIONS: '3' } : {}),
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, database), createHttpAdapter({ bodyLimit: BODY_LIMIT_BYTES }), {
    logger: false,
  });
  configureHttp(app);
  await app.listen(port, '127.0.0.1');
  const db = app.get(DataSource);
  const { apiKey } = await seedDemo(db, { whenExists: 'refuse', dataDir, log: () => undefined });

  const inject = async (method: string, url: string, headers: Record<string, string>, payload?: string): Promise<Reply> => {
    const response = await app.inject({ method: method as 'GET', url, headers, ...(payload === undefined ? {} : { payload }) });
    let body: unknown = response.body;
    try {
      body = JSON.parse(response.body);
    } catch {
      // Not JSON (the lease pages): kept as text.
    }
    return { status: response.statusCode, headers: response.headers, body, text: response.body };
  };

  return {
    db,
    dataDir,
    baseUrl,
    call: (method, url, body, headers = {}) =>
      inject(
        method,
        url,
        { 'x-api-key': apiKey!, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        body === undefined ? undefined : JSON.stringify(body),
      ),
    postForm: (url, form, headers = {}) =>
      inject('POST', url, { 'content-type': 'application/x-www-form-urlencoded', ...headers }, new URLSearchParams(form).toString()),
    sentNotifications: () => app.get<EmbeddedNotificationAdapter>(NOTIFICATION_PORT, { strict: false }).mailbox,
    close: async () => {
      await app.close();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
