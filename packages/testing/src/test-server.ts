import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { migrate, query, sql, startEmbeddedPostgres } from '@storage/persistence';

/** Environment handed from jest's global setup to every test file of the run. */
export const ENV_ADMIN_URL = 'STORAGE_TEST_ADMIN_URL';
export const ENV_TEMPLATE = 'STORAGE_TEST_TEMPLATE_DB';

/**
 * A TCP port nothing listens on now, for a server a test starts: one at random below the kernel's ephemeral range
 * (`ip_local_port_range`). A port of that range may meanwhile be handed to an outgoing connection of another suite
 * (a database client, say), and the server, binding it later, fails with EADDRINUSE: CI saw the cli's journey start
 * its scheduler half a minute after choosing a port that a connection had taken by then.
 */
export async function freePort(): Promise<number> {
  const below = Math.max(ephemeralPortsFrom(), LOWEST_PORT + 1_000);
  for (let attempt = 1; ; attempt++) {
    const port = LOWEST_PORT + Math.floor(Math.random() * (below - LOWEST_PORT));
    if (await nothingListensOn(port)) return port;
    if (attempt === 100) throw new Error(`no free port between ${LOWEST_PORT} and ${below} in 100 tries`);
  }
}

/** Above the ports of well-known services (Kafka's 9092 among them). */
const LOWEST_PORT = 10_000;

/** Where the kernel's ephemeral ports start (Linux; 32768, its default, elsewhere). */
export function ephemeralPortsFrom(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32_768;
  } catch {
    return 32_768;
  }
}

function nothingListensOn(port: number): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' || error.code === 'EACCES' ? resolve(false) : reject(error)));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

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
