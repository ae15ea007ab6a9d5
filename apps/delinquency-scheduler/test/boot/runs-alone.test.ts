import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { locateDatabase, migrate, startEmbeddedPostgres } from '@storage/persistence';
import { eventually, freePort } from '@storage/testing';

const MAIN = path.resolve(__dirname, '../../dist/main.js');

/**
 * The service run alone, as its README says (`node apps/delinquency-scheduler/dist/main.js`), on an embedded
 * database of its own: in a process group of its own, as a terminal runs it.
 */
describe('run alone on its embedded database', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let port: number;
  const postmasterRuns = () => existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'));

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'scheduler-alone-'));
    port = await freePort();
    env = {
      PATH: process.env.PATH,
      DATA_DIR: dataDir,
      EMBEDDED_POSTGRES_PORT: String(await freePort()),
      SCHEDULER_PORT: String(port),
      SCHEDULER_TICK_SECONDS: '0',
    };
  });
  const started: ChildProcess[] = [];
  afterEach(() => {
    // One a failed test left running (its group: the service and its database's host).
    for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  function runAlone(overrides: NodeJS.ProcessEnv = {}) {
    const child = spawn(process.execPath, [MAIN], { env: { ...env, ...overrides }, detached: true });
    started.push(child);
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    return { child, output: () => output, exited };
  }

  it('on a database nothing migrated yet, says what to run and stops, its database with it', async () => {
    const alone = runAlone();
    await eventually(() => expect(alone.child.exitCode).toBe(1), { timeoutMs: 60_000, intervalMs: 250 });
    expect(alone.output()).toContain('database not migrated');
    expect(alone.output()).toContain('run npm run cli -- db migrate');
    expect(postmasterRuns()).toBe(false);
  }, 120_000);

  it('on a DATABASE_URL of a database nothing migrated, says what to run and stops', async () => {
    const serverDir = await mkdtemp(path.join(tmpdir(), 'scheduler-alone-external-'));
    const server = await startEmbeddedPostgres({ dataDir: serverDir, port: await freePort(), ephemeral: true });
    try {
      const alone = runAlone({ DATABASE_URL: server.url() });
      await eventually(() => expect(alone.child.exitCode).toBe(1), { timeoutMs: 60_000, intervalMs: 250 });
      expect(alone.output()).toContain('database not migrated');
      expect(alone.output()).toContain('run npm run cli -- db migrate');
    } finally {
      await server.stop();
      await rm(serverDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('once migrated, runs, and stops quietly on a Ctrl-C to its process group, its database after it', async () => {
    const database = await locateDatabase({ dataDir });
    await migrate(database.url);
    await database.release();

    const alone = runAlone();
    await eventually(
      async () => {
        if (alone.child.exitCode !== null) throw new Error(`exited early:\n${alone.output()}`);
        expect((await fetch(`http://127.0.0.1:${port}/health/ready`)).status).toBe(200);
      },
      { timeoutMs: 60_000, intervalMs: 250 },
    );
    const running = alone.output().length;
    process.kill(-alone.child.pid!, 'SIGINT');
    expect(await alone.exited).toBe(0);
    // Its JSON logs: 40 is a warning, 50 an error, 60 fatal. A database stopped under it would warn of a lost connection.
    expect(alone.output().slice(running)).not.toMatch(/"level":[4-6]0\b/);
    expect(postmasterRuns()).toBe(false);
  }, 120_000);
});
