import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort, migrate, query, sql, startEmbeddedPostgres } from '@storage/persistence';

/** Environment handed from jest's global setup to every test file of the run. */
export const ENV_ADMIN_URL = 'STORAGE_TEST_ADMIN_URL';
export const ENV_TEMPLATE = 'STORAGE_TEST_TEMPLATE_DB';

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

export async function adminQuery(adminUrl: string, text: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  client.on('error', () => undefined); // its query in flight reports a lost connection
  await client.connect();
  try {
    await query(client, sql(text));
  } finally {
    await client.end();
  }
}

export interface TestServer {
  adminUrl: string;
  templateDatabase: string;
  stop: () => Promise<void>;
}

/**
 * A real PostgreSQL for one test run: `TEST_DATABASE_URL` when set, else a throwaway embedded cluster.
 * The real migrations are applied once to a template database that each test file copies.
 */
export async function startTestServer(): Promise<TestServer> {
  const templateDatabase = `storage_template_${randomBytes(4).toString('hex')}`;
  let adminUrl: string;
  let stopServer = async (): Promise<void> => undefined;
  if (process.env.TEST_DATABASE_URL) {
    adminUrl = process.env.TEST_DATABASE_URL;
  } else {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'storage-test-'));
    const server = await startEmbeddedPostgres({ dataDir, port: await freePort(), ephemeral: true });
    adminUrl = server.url('postgres');
    stopServer = async () => {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    };
  }
  await adminQuery(adminUrl, `CREATE DATABASE ${templateDatabase}`);
  await migrate(withDatabase(adminUrl, templateDatabase));
  return {
    adminUrl,
    templateDatabase,
    stop: async () => {
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${templateDatabase} WITH (FORCE)`);
      await stopServer();
    },
  };
}
