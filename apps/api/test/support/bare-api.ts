import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createHttpAdapter } from '@storage/platform';
import { createTestDatabase } from '@storage/testing';
import { DataSource } from 'typeorm';
import { AppModule } from '../../src/app.module';
import { loadServiceConfig } from '../../src/config';
import { BODY_LIMIT_BYTES, configureHttp } from '../../src/http';
import type { EmbeddedNotificationAdapter } from '../../src/notifications/embedded-notification.adapter';
import { NOTIFICATION_PORT } from '../../src/notifications/notification.port';
import { PUBLIC_BASE_URL, type Reply } from './test-api';

export interface BareApi {
  db: DataSource;
  /** A call with this key (null: none), a JSON body, or a form (the lease page). */
  call: (method: string, url: string, options: { key: string | null; body?: unknown; form?: Record<string, string> }) => Promise<Reply>;
  /** What the notification port sent, in full (signing links included), oldest first. */
  sentNotifications: () => { recipient: string; body: string; subject: string }[];
  close: () => Promise<void>;
}

/** The api on a migrated database with nothing in it: no demo, no portfolio, no key. */
export async function startBareApi(): Promise<BareApi> {
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'bare-api-test-'));
  const config = loadServiceConfig({ DATABASE_URL: database.url, DATA_DIR: dataDir, LOG_LEVEL: 'silent', PUBLIC_BASE_URL, DATABASE_POOL_SIZE: '4' });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, database), createHttpAdapter({ bodyLimit: BODY_LIMIT_BYTES }), {
    logger: false,
  });
  configureHttp(app);
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return {
    db: app.get(DataSource),
    call: async (method, url, { key, body, form }) => {
      const headers: Record<string, string> = key === null ? {} : { 'x-api-key': key };
      let payload: string | undefined;
      if (form !== undefined) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        payload = new URLSearchParams(form).toString();
      } else if (body !== undefined) {
        headers['content-type'] = 'application/json';
        payload = JSON.stringify(body);
      }
      const response = await app.inject({ method: method as 'GET', url, headers, ...(payload === undefined ? {} : { payload }) });
      let parsed: unknown = response.body;
      try {
        parsed = JSON.parse(response.body);
      } catch {
        // Not JSON (the lease pages): kept as text.
      }
      return { status: response.statusCode, headers: response.headers, body: parsed, text: response.body };
    },
    sentNotifications: () => app.get<EmbeddedNotificationAdapter>(NOTIFICATION_PORT, { strict: false }).mailbox,
    close: async () => {
      await app.close();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
