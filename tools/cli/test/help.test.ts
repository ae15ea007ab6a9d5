import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '@storage/testing';

const cli = path.resolve(__dirname, '../dist/main.js');

let database: TestDatabase;
let dataDir: string;
beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'storage-cli-'));
});
afterAll(async () => {
  await database.drop();
  await rm(dataDir, { recursive: true, force: true });
});

function runCli(args: string[]): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [cli, ...args], {
    env: { PATH: process.env.PATH, DATABASE_URL: database.url, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** A digest of every row of every table: equal digests, nothing changed. */
async function snapshot(): Promise<Record<string, string>> {
  const client = new Client({ connectionString: database.url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const { rows: tables } = await client.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
    );
    const digests: Record<string, string> = {};
    for (const { name } of tables) {
      const { rows } = await client.query<{ digest: string }>(`SELECT count(*) || ':' || coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '') AS digest FROM "${name}" t`);
      digests[name] = rows[0].digest;
    }
    return digests;
  } finally {
    await client.end();
  }
}

const COMMANDS = [
  ['start'],
  ['db', 'migrate'],
  ['seed'],
  ['seed', 'demo'],
  ['seed', 'demo', '--yes'],
  ['seed', 'scale', '--facilities', '1', '--rentals', '1'],
  ['api-keys', 'create', '--portfolio', 'demo'],
  ['replay', '--group', 'webhook-dispatcher', '--from', '2020-01-01T00:00:00Z'],
  ['delinquency', 'run', '--as-of', '2025-01-01'],
];

describe('the CLI', () => {
  it('answers --help and -h on every command with its usage, exit 0, and changes nothing', async () => {
    const before = await snapshot();
    for (const command of COMMANDS) {
      for (const help of ['--help', '-h']) {
        const { status, output } = runCli([...command, help]);
        expect({ command: [...command, help].join(' '), status, usage: output.startsWith('Usage: npm run cli -- ') }).toEqual({
          command: [...command, help].join(' '),
          status: 0,
          usage: true,
        });
      }
    }
    expect(await snapshot()).toEqual(before);
  }, 120_000);

  it('refuses to replace an existing demo unless told --yes, and keeps it with --if-empty', async () => {
    expect(runCli(['seed', 'demo']).status).toBe(0);
    const seeded = await snapshot();
    const refused = runCli(['seed', 'demo']);
    expect(refused.status).toBe(2);
    expect(refused.output).toContain('seed demo --yes');
    expect(runCli(['seed', 'demo', '--if-empty']).status).toBe(0);
    expect(await snapshot()).toEqual(seeded);
    const replaced = runCli(['seed', 'demo', '--yes']);
    expect(replaced.status).toBe(0);
    expect(replaced.output).toContain('Seeded portfolio "demo"');
  }, 120_000);
});
