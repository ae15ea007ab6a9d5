import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '@storage/testing';
import { databaseSnapshot } from './support/database-snapshot';
import { query, sql } from '@storage/persistence';

const cli = path.resolve(__dirname, '../dist/main.js');

// A database as a new deployment has it: empty, on the test server (the migrated test database is only the way in).
let server: TestDatabase;
let emptyUrl: string;
let dataDir: string;
const empty = `empty_${randomBytes(6).toString('hex')}`;

async function onServer(text: string): Promise<void> {
  const client = new Client({ connectionString: server.url });
  await client.connect();
  try {
    await query(client, sql(text));
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  server = await createTestDatabase();
  await onServer(`CREATE DATABASE ${empty}`);
  const url = new URL(server.url);
  url.pathname = `/${empty}`;
  emptyUrl = url.toString();
  dataDir = await mkdtemp(path.join(tmpdir(), 'storage-migrate-step-'));
});
afterAll(async () => {
  await onServer(`DROP DATABASE IF EXISTS ${empty} WITH (FORCE)`);
  await server.drop();
  await rm(dataDir, { recursive: true, force: true });
});

function runCli(...args: string[]): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [cli, ...args], {
    env: { PATH: process.env.PATH, DATABASE_URL: emptyUrl, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('migrations are their own step', () => {
  it('a command that needs the schema refuses a database without it, names the step, and creates nothing', async () => {
    const refused = runCli('api-keys', 'create', '--admin');
    expect(refused.output).toMatch(/database not migrated \(\d+ migration\(s\) pending, the first MessagingBackbone\d+\): run npm run cli -- db migrate/);
    expect(refused.status).toBe(1);
    expect(await databaseSnapshot(emptyUrl)).toEqual({});
  }, 180_000);

  it('db migrate applies them and says so, a second run finds the database up to date, and the command then runs', async () => {
    const first = runCli('db', 'migrate');
    // Each migration applied, and what a migration reports of its own, indented under the step.
    expect(first.output).toMatch(/^applying migrations\n( {2}.+\n)+\d+ migration\(s\) applied\n$/);
    expect(first.output).toContain('\n  applied MessagingBackbone1795316531611\n');
    expect(first.status).toBe(0);
    expect(runCli('db', 'migrate').output).toBe('applying migrations\ndatabase is up to date\n');
    const created = runCli('api-keys', 'create', '--admin');
    expect(created.output).toContain('API key (admin, all portfolios)');
    expect(created.status).toBe(0);
  }, 180_000);
});
