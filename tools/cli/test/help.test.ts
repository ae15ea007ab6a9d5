import { spawn, spawnSync } from 'node:child_process';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { createTestDatabase, eventually, type TestDatabase } from '@storage/testing';
import { databaseSnapshot } from './support/database-snapshot';
import { query, sql } from '@storage/persistence';

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

/** A CLI command running in the background: its output lines so far, its exit. */
function spawnCli(args: string[], databaseUrl: string): { lines: () => string[]; exited: Promise<number | null>; kill: () => void } {
  const child = spawn(process.execPath, [cli, ...args], { env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl, DATA_DIR: dataDir, LOG_LEVEL: 'warn' } });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return {
    lines: () => output.split('\n').filter((line) => line.trim() !== ''),
    exited: new Promise((resolve) => child.once('close', resolve)),
    kill: () => void child.kill('SIGKILL'),
  };
}

function runCli(args: string[]): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [cli, ...args], {
    env: { PATH: process.env.PATH, DATABASE_URL: database.url, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** Every command and sub-command, with arguments that would change something were they run. */
const COMMANDS = [
  [],
  ['start'],
  ['db'],
  ['db', 'migrate'],
  ['seed'],
  ['seed', 'demo'],
  ['seed', 'demo', '--yes'],
  ['seed', 'scale', '--facilities', '1', '--rentals', '1'],
  ['api-keys'],
  ['api-keys', 'create', '--portfolio', 'demo'],
  ['api-keys', 'list', '--portfolio', 'demo'],
  ['api-keys', 'revoke', 'sk_abcde', '--yes'],
  ['import', 'docs/examples/portfolio.json'],
  ['replay', '--group', 'webhook-dispatcher', '--from', '2020-01-01T00:00:00Z'],
  ['webhooks'],
  ['webhooks', 'resend', 'msg_abcde'],
  ['webhooks', 'recover', '--endpoint', '00000000-0000-4000-8000-000000000000', '--since', '2020-01-01T00:00:00Z'],
  ['webhooks', 'trigger', 'auction', '--portfolio', 'demo', '--api-key', 'sk_abcde'],
  ['business-day'],
  ['business-day', 'run', '--as-of', '2025-01-01'],
  ['delinquency'],
  ['delinquency', 'run', '--as-of', '2025-01-01'],
];

/** The words naming the command: its usage line starts with them. */
const words = (command: string[]): string => {
  const end = command.findIndex((arg) => arg.startsWith('-'));
  // A revoke's key argument, an import's file, a resend's message id and a trigger's event type are not part of the command's name.
  return command
    .slice(0, end === -1 ? undefined : end)
    .filter((arg) => !arg.startsWith('sk_') && !arg.endsWith('.json') && !arg.startsWith('msg_') && arg !== 'auction')
    .join(' ');
};

describe('the CLI', () => {
  it('answers --help and -h on every command and sub-command with its own usage, exit 0, and changes nothing', async () => {
    expect(runCli(['seed', 'demo']).status).toBe(0);
    const before = await databaseSnapshot(database.url);
    const calls = COMMANDS.flatMap((command) => [
      [...command, '--help'],
      [...command, '-h'],
      // Where an option would take it as its value.
      ...(command.length > 2 ? [[...command.slice(0, 3), '-h', ...command.slice(3)]] : []),
    ]);
    for (const call of [...calls, ['help', 'seed', 'scale'], ['help']]) {
      const { status, output } = runCli(call);
      const command = call[0] === 'help' ? call.slice(1) : call;
      const expected = `Usage: npm run cli -- ${words(command) || '<command>'}`;
      expect({ call: call.join(' '), status, usage: output.split('\n')[0].startsWith(expected) ? expected : output }).toEqual({
        call: call.join(' '),
        status: 0,
        usage: expected,
      });
    }
    expect(await databaseSnapshot(database.url)).toEqual(before);
  }, 300_000);

  it('exits 2 on a usage error, naming it, and changes nothing', async () => {
    const before = await databaseSnapshot(database.url);
    const errors: [string[], string][] = [
      [['bogus'], "unknown command 'bogus'"],
      [['start', '--bogus'], "unknown option '--bogus'"],
      [['db'], 'Usage: npm run cli -- db'],
      [['db', 'bogus'], "unknown command 'bogus'"],
      [['seed'], 'Usage: npm run cli -- seed'],
      [['seed', 'bogus'], "unknown command 'bogus'"],
      [['seed', 'demo', '--bogus'], "unknown option '--bogus'"],
      [['seed', 'demo', '--yes', '--if-empty'], 'cannot be used with'],
      [['seed', 'scale', '--rentals', '1'], "'--facilities <N>' not specified"],
      [['seed', 'scale', '--facilities', 'x', '--rentals', '1'], 'a positive integer is needed, got "x"'],
      [['api-keys'], 'Usage: npm run cli -- api-keys'],
      [['api-keys', 'create'], '--portfolio <id> (repeatable), --all-portfolios or --admin is required'],
      [['api-keys', 'create', '--admin', '--portfolio', 'demo'], 'cannot be used with'],
      [['api-keys', 'create', '--portfolio', 'demo', '--scope', 'admin'], 'Allowed choices are read, write'],
      [['api-keys', 'create', '--portfolio', 'nowhere'], 'Unknown portfolio: nowhere'],
      [['api-keys', 'list', '--portfolio', 'nowhere'], 'Unknown portfolio: nowhere'],
      [['api-keys', 'revoke'], "missing required argument 'key'"],
      [['api-keys', 'revoke', 'sk_nokey', '--yes'], 'No API key has the id or prefix "sk_nokey"'],
      [['replay', '--from', '2020-01-01T00:00:00Z'], "'--group <group>' not specified"],
      [['replay', '--group', 'webhook-dispatcher', '--from', 'yesterday'], 'an ISO 8601 time is needed'],
      [['webhooks', 'resend'], "missing required argument 'message-id'"],
      [['webhooks', 'resend', 'msg_nosuchmessage'], 'unknown message id "msg_nosuchmessage"'],
      [['webhooks', 'recover', '--since', '2020-01-01T00:00:00Z'], "'--endpoint <endpoint-id>' not specified"],
      [['webhooks', 'recover', '--endpoint', 'ep_1', '--since', '2020-01-01T00:00:00Z'], 'a UUID is needed'],
      [['webhooks', 'recover', '--endpoint', '00000000-0000-4000-8000-000000000000', '--since', 'yesterday'], 'an ISO 8601 time is needed'],
      [['webhooks', 'recover', '--endpoint', '00000000-0000-4000-8000-000000000000', '--since', '2020-01-01T00:00:00Z'], 'unknown endpoint id'],
      [['webhooks', 'trigger', 'auction'], "'--portfolio <id>' not specified"],
      [['webhooks', 'trigger', 'moved-sideways', '--portfolio', 'demo', '--api-key', 'sk_x'], 'unknown event type "moved-sideways"'],
      [['import'], "missing required argument 'file'"],
      [['import', 'nowhere.json'], 'Cannot read'],
      [['import', 'docs/examples/portfolio.json', '--bogus'], "unknown option '--bogus'"],
      [['business-day', 'run'], "'--as-of <YYYY-MM-DD>' not specified"],
      [['business-day', 'run', '--as-of', '2025-02-30'], 'a date YYYY-MM-DD is needed'],
      [['delinquency', 'run'], "'--as-of <YYYY-MM-DD>' not specified"],
      [['delinquency', 'run', '--as-of', '2025-13-01'], 'a date YYYY-MM-DD is needed'],
      [['delinquency', 'run', '--as-of', '2025-01-01', '--facility', 'x'], 'a UUID is needed'],
    ];
    for (const [call, message] of errors) {
      const { status, output } = runCli(call);
      expect({ call: call.join(' '), status, message: output.includes(message) ? message : output }).toEqual({ call: call.join(' '), status: 2, message });
    }
    expect(await databaseSnapshot(database.url)).toEqual(before);
  }, 300_000);

  it('refuses an unknown consumer group, exit 2, listing the known ones', async () => {
    const client = new Client({ connectionString: database.url });
    await client.connect();
    await query(
      client,
      sql(`INSERT INTO consumer_offsets (consumer_group, position) VALUES ('webhook-dispatcher', 0), ('relay:api', 0) ON CONFLICT DO NOTHING
        -- owner-bypass: the positions two consumers leave, without running them`),
    );
    await client.end();
    const typo = runCli(['replay', '--group', 'webhook-dispatchr', '--from', '2020-01-01T00:00:00Z']);
    expect(typo.status).toBe(2);
    expect(typo.output).toContain('unknown consumer group "webhook-dispatchr"; known groups: webhook-dispatcher\n');
    expect(runCli(['replay', '--group', 'webhook-dispatcher', '--from', '2020-01-01T00:00:00Z']).status).toBe(0);
  }, 60_000);

  it('lists API keys without their secret and revokes one only when told --yes', async () => {
    const created = runCli(['api-keys', 'create', '--portfolio', 'demo', '--scope', 'read', '--label', 'call centre']);
    expect(created.status).toBe(0);
    const key = /\b(sk_[A-Za-z0-9_-]+)/.exec(created.output)![1];
    const listed = runCli(['api-keys', 'list', '--portfolio', 'demo']);
    expect(listed.status).toBe(0);
    expect(listed.output).not.toContain(key);
    const row = listed.output
      .split('\n')
      .find((line) => line.includes(key.slice(0, 8)))!
      .split('\t');
    expect(row).toEqual([
      expect.stringMatching(/^[0-9a-f-]{36}$/),
      key.slice(0, 8),
      'read',
      'demo',
      expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      '-',
      'call centre',
    ]);

    const unasked = runCli(['api-keys', 'revoke', row[0]]);
    expect(unasked.status).toBe(2);
    expect(unasked.output).toContain(`api-keys revoke ${row[0]} --yes`);
    expect(runCli(['api-keys', 'list']).output).toContain(`${key.slice(0, 8)}\tread\tdemo\t${row[4]}\t-\t`);

    const revoked = runCli(['api-keys', 'revoke', key.slice(0, 8), '--yes']);
    expect(revoked.status).toBe(0);
    expect(revoked.output).toContain(`revoked API key ${row[0]}`);
    const after = runCli(['api-keys', 'list', '--portfolio', 'demo'])
      .output.split('\n')
      .find((line) => line.startsWith(row[0]))!
      .split('\t');
    expect(after[5]).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  }, 60_000);

  it('announces a long command before its work, then reports it as the work goes, to the end', async () => {
    const run = spawnCli(['seed', 'scale', '--facilities', '6', '--rentals', '3000', '--portfolio', 'progress'], database.url);
    expect(await run.exited).toBe(0);
    const lines = run.lines();
    expect(lines[0]).toBe('seeding portfolio "progress": 6 facilities, 3000 rentals');
    expect(lines.filter((line) => /^facilities \d+\/6, rentals \d+\/3000 /.test(line))).toHaveLength(2);
    expect(lines.at(-1)).toContain('Seeded portfolio "progress"');
  }, 180_000);

  /*
   * Whatever the machine's speed: a database that accepts the connection and never answers keeps the command silent
   * for as long as the test likes, and it must say it is still at work, again and again, at least 5 s apart.
   */
  it('says a silent command is still working, however long its work takes', async () => {
    const held: Socket[] = [];
    const silent = createServer((socket) => void held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const run = spawnCli(
      ['seed', 'scale', '--facilities', '1', '--rentals', '10', '--portfolio', 'silent'],
      `postgres://nobody:x@127.0.0.1:${(silent.address() as AddressInfo).port}/storage`,
    );
    try {
      const heartbeats = await eventually(
        () => {
          const found = run.lines().filter((line) => line.startsWith('seed: still working ('));
          expect(found.length).toBeGreaterThanOrEqual(2);
          return found;
        },
        { timeoutMs: 120_000, intervalMs: 250 },
      );
      expect(run.lines()[0]).toBe('seeding portfolio "silent": 1 facilities, 10 rentals');
      const seconds = heartbeats.map((line) => Number(/\((\d+) s\)/.exec(line)?.[1]));
      expect(seconds[1] - seconds[0]).toBeGreaterThanOrEqual(5);
    } finally {
      run.kill();
      await run.exited;
      for (const socket of held) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  }, 180_000);

  it('refuses to replace an existing demo unless told --yes, and keeps it with --if-empty', async () => {
    expect(runCli(['seed', 'demo', '--if-empty']).status).toBe(0);
    const seeded = await databaseSnapshot(database.url);
    const refused = runCli(['seed', 'demo']);
    expect(refused.status).toBe(2);
    expect(refused.output).toContain('seed demo --yes');
    expect(runCli(['seed', 'demo', '--if-empty']).status).toBe(0);
    expect(await databaseSnapshot(database.url)).toEqual(seeded);
    const replaced = runCli(['seed', 'demo', '--yes']);
    expect(replaced.status).toBe(0);
    expect(replaced.output).toContain('Seeded portfolio "demo"');
  }, 120_000);
});
