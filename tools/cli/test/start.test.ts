import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { MIGRATIONS_TABLE, query, sql } from '@storage/persistence';
import { childPids, commandLine, createTestDatabase, descendantPids, eventually, freePort, isRunning, sessionsWaitingForLocks } from '@storage/testing';
import { cli, runCli, startingSystem, startSystem, stopWithCtrlC } from './support/system';

const portIsClosed = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

describe('npm start', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let ports: { api: number; dispatcher: number; scheduler: number; postgres: number };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'storage-start-'));
    ports = { api: await freePort(), dispatcher: await freePort(), scheduler: await freePort(), postgres: await freePort() };
    env = {
      PATH: process.env.PATH,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      API_PORT: String(ports.api),
      DISPATCHER_PORT: String(ports.dispatcher),
      SCHEDULER_PORT: String(ports.scheduler),
      EMBEDDED_POSTGRES_PORT: String(ports.postgres),
    };
  });

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('runs everything in one process, stops everything on Ctrl-C, and keeps the data across a restart', async () => {
    const first = await startSystem(env);
    // The three apps run in the process of npm start, its only Node process: its children are PostgreSQL and the
    // sentinel (a shell) that stops it should npm start die.
    expect(childPids(first.process.pid!).map(commandLine).sort()).toEqual([
      expect.stringContaining('postgres-sentinel'),
      expect.stringMatching(/bin\/postgres -D/),
    ]);
    const demoKey = readFileSync(path.join(dataDir, 'demo-api-key'), 'utf8').trim();
    expect(first.output()).toContain(demoKey);
    expect(first.output()).toContain(`http://localhost:${ports.api}`);
    const portfolios = await fetch(`http://127.0.0.1:${ports.api}/api/portfolios`, { headers: { 'x-api-key': demoKey } });
    expect(portfolios.status).toBe(200);
    expect(await portfolios.json()).toEqual(expect.arrayContaining([expect.objectContaining({ portfolioId: 'demo' })]));

    // Written while the system runs: a new key, stored only in the database.
    const created = runCli(env, 'api-keys', 'create', '--portfolio', 'demo', '--scope', 'read');
    expect(created.status).toBe(0);
    const newKey = /\b(sk_[A-Za-z0-9_-]+)/.exec(created.stdout)?.[1];
    expect(newKey).toBeDefined();

    const running = first.output().length;
    expect(await stopWithCtrlC(first)).toBe(0);
    // Stopping is quiet: the services stop before PostgreSQL, so none of them sees its database go away.
    // (Piped, the services log JSON: 40 is a warning, 50 an error, 60 fatal.)
    expect(first.output().slice(running)).not.toMatch(/"level":[4-6]0\b/);
    for (const port of Object.values(ports)) expect(await portIsClosed(port)).toBe(true);
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);

    const second = await startSystem(env);
    try {
      const again = await fetch(`http://127.0.0.1:${ports.api}/api/portfolios`, { headers: { 'x-api-key': newKey! } });
      expect(again.status).toBe(200);
      expect(readFileSync(path.join(dataDir, 'demo-api-key'), 'utf8').trim()).toBe(demoKey);
    } finally {
      expect(await stopWithCtrlC(second)).toBe(0);
    }
  }, 300_000);

  it('stops everything, PostgreSQL included, and exits 1 naming the app when one of them fails to start', async () => {
    // Free when npm start checks its ports, taken (by another server) once it is past the check: the scheduler
    // cannot listen, the api and the dispatcher already do.
    const system = spawn(process.execPath, [cli, 'start'], { env, detached: true });
    let output = '';
    system.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    system.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => system.once('exit', (code) => resolve(code)));
    await eventually(() => expect(output).toContain('seeding the demo portfolio'), { timeoutMs: 120_000, intervalMs: 50 });
    const other = createServer();
    await new Promise<void>((resolve) => other.listen(ports.scheduler, resolve));
    try {
      expect(await exited).toBe(1);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
    expect(output).toMatch(/scheduler failed to start \(.*EADDRINUSE.*\); stopping everything/);
    expect(output).toContain('stopping embedded PostgreSQL');
    for (const port of Object.values(ports)) expect(await portIsClosed(port)).toBe(true);
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  }, 300_000);

  it('stops everything, PostgreSQL included, and exits 1 naming the app when one of them fails at run time', async () => {
    const failing = `--require ${path.join(__dirname, 'support', 'fail-at-run-time.js')}`;
    const system = await startSystem({ ...env, NODE_OPTIONS: failing });
    const exited = new Promise<number | null>((resolve) => system.process.once('exit', (code) => resolve(code)));
    await expectNothingLeftAfter(system.process.pid!, 'SIGUSR2');
    expect(await exited).toBe(1);
    expect(system.output()).toMatch(/dispatcher failed: Error: a defect in the dispatcher at run time[^]*; stopping everything/);
    expect(system.output()).toContain('stopping embedded PostgreSQL');
  }, 300_000);

  it('refuses a second npm start, and stops everything, PostgreSQL included, when its terminal closes (SIGHUP)', async () => {
    const system = await startSystem(env);
    const second = runCli(env, 'start');
    expect({ status: second.status, output: second.stdout + second.stderr }).toEqual({
      status: 1,
      output: expect.stringContaining('npm start is already running'),
    });
    expect(second.stdout).not.toContain('is ready');
    // Another data directory, the same ports: refused before it starts anything.
    const otherDataDir = await mkdtemp(path.join(tmpdir(), 'storage-start-other-'));
    const third = runCli({ ...env, DATA_DIR: otherDataDir }, 'start');
    await rm(otherDataDir, { recursive: true, force: true });
    expect({ status: third.status, output: third.stdout }).toEqual({
      status: 1,
      output: expect.stringContaining(`port ${ports.api} (api, API_PORT) is in use`),
    });

    await expectNothingLeftAfter(system.process.pid!, 'SIGHUP');
  }, 300_000);

  it('stops everything, PostgreSQL included, and exits 0 on SIGTERM (kill, or a process manager stopping it)', async () => {
    const system = await startSystem(env);
    const exited = new Promise<number | null>((resolve) => system.process.once('exit', (code) => resolve(code)));
    await expectNothingLeftAfter(system.process.pid!, 'SIGTERM');
    expect(await exited).toBe(0);
    expect(system.output()).toContain('stopping embedded PostgreSQL');
  }, 300_000);

  it('leaves no service nor PostgreSQL running when npm start is killed (SIGKILL)', async () => {
    const system = await startSystem(env);
    await expectNothingLeftAfter(system.process.pid!, 'SIGKILL');
  }, 300_000);

  it('stops everything and exits 1 with what PostgreSQL said when the embedded PostgreSQL stops on its own; the next start recovers', async () => {
    const system = await startSystem(env);
    const exited = new Promise<number | null>((resolve) => system.process.once('exit', (code) => resolve(code)));
    const postgres = childPids(system.process.pid!).find((pid) => /bin\/postgres -D/.test(commandLine(pid)));
    // An immediate shutdown: what PostgreSQL does when it cannot go on (its WAL's disk full), or someone stops it.
    await expectNothingLeftAfter(system.process.pid!, 'SIGQUIT', postgres);
    expect(await exited).toBe(1);
    expect(system.output()).toMatch(/embedded PostgreSQL stopped on its own; it said:[^]*immediate shutdown request[^]*stopping everything/);

    // The next start recovers the cluster (PostgreSQL replays its WAL) and serves.
    const next = await startSystem(env);
    expect(await stopWithCtrlC(next)).toBe(0);
  }, 300_000);

  it('refuses a port variable that is not a port, naming each, and writes nothing', async () => {
    const fresh = path.join(tmpdir(), `storage-start-ports-${process.pid}`);
    const apps = runCli({ ...env, DATA_DIR: fresh, API_PORT: 'abc', SCHEDULER_PORT: '99999' }, 'start');
    expect(apps.status).toBe(1);
    expect(apps.stdout + apps.stderr).toMatch(/API_PORT: must be a port number \(1-65535\)[^]*SCHEDULER_PORT: must be a port number \(1-65535\)/);
    expect(existsSync(fresh)).toBe(false);

    const postgres = runCli({ ...env, DATA_DIR: fresh, EMBEDDED_POSTGRES_PORT: 'abc' }, 'start');
    expect(postgres.status).toBe(1);
    expect(postgres.stdout + postgres.stderr).toContain('EMBEDDED_POSTGRES_PORT: must be a port number (1-65535)');
    expect(existsSync(path.join(fresh, 'postgres'))).toBe(false);
    await rm(fresh, { recursive: true, force: true });
  }, 120_000);

  it('refuses a variable any app refuses, naming it once, before anything starts or is written', async () => {
    const fresh = path.join(tmpdir(), `storage-start-config-${process.pid}`);
    const failed = runCli({ ...env, DATA_DIR: fresh, LOG_LEVEL: 'verbose', PORTAL_TOKEN_SECRET: 'short', DATABASE_URL: 'notaurl' }, 'start');
    expect(failed.status).toBe(1);
    const output = failed.stdout + failed.stderr;
    expect(output).toContain('Invalid configuration:');
    // Every app reads LOG_LEVEL and DATABASE_URL; the api and the dispatcher read PORTAL_TOKEN_SECRET.
    for (const variable of ['LOG_LEVEL', 'PORTAL_TOKEN_SECRET', 'DATABASE_URL']) expect(output.split(`- ${variable}:`)).toHaveLength(2);
    expect(output).toContain('DATABASE_URL: must be a postgres:// connection URL');
    expect(output).not.toContain('notaurl');
    expect(output).not.toMatch(/PostgreSQL|migrations/);
    expect(existsSync(fresh)).toBe(false);
  }, 120_000);

  it('says which database it cannot reach when DATABASE_URL names one that does not answer, and exits 1', async () => {
    const port = await freePort();
    const failed = runCli({ ...env, DATABASE_URL: `postgres://storage:secret@127.0.0.1:${port}/storage` }, 'start');
    expect(failed.status).toBe(1);
    const output = failed.stdout + failed.stderr;
    expect(output).toContain(`the database at 127.0.0.1:${port} (DATABASE_URL) is not reachable (connect ECONNREFUSED 127.0.0.1:${port})`);
    expect(output).not.toContain('secret');
  }, 120_000);

  it('stops on Ctrl-C while its migrate step waits for a lock on the database, and exits 0', async () => {
    // Another session (a replica migrating the same database, an operator's long transaction) holds the migrations
    // table: the migrate step waits for it, and Ctrl-C must not.
    const database = await createTestDatabase();
    const holder = new Client({ connectionString: database.url });
    const observer = new Client({ connectionString: database.url });
    await Promise.all([holder.connect(), observer.connect()]);
    await query(holder, sql('BEGIN'));
    await query(holder, sql(`LOCK TABLE ${MIGRATIONS_TABLE} IN ACCESS EXCLUSIVE MODE`));
    const system = startingSystem({ ...env, DATABASE_URL: database.url });
    try {
      // Seen from a session of its own: the holder's transaction would see one snapshot of the activity throughout.
      await eventually(async () => expect(await sessionsWaitingForLocks(observer)).toBe(1), { timeoutMs: 60_000 });
      process.kill(-system.process.pid!, 'SIGINT');
      // While the lock is still held.
      await eventually(() => expect(system.process.exitCode).toBe(0), { timeoutMs: 60_000 });
      expect(system.output()).toContain('applying migrations');
      expect(system.output()).not.toContain('is ready');
    } finally {
      if (system.process.exitCode === null) process.kill(-system.process.pid!, 'SIGKILL');
      await Promise.all([holder.end(), observer.end()]);
      await database.drop();
    }
  }, 120_000);

  it('says nothing failed when Ctrl-C stops it while it applies the migrations to its embedded PostgreSQL', async () => {
    const fresh = await mkdtemp(path.join(tmpdir(), 'storage-start-interrupted-'));
    try {
      const system = startingSystem({ ...env, DATA_DIR: fresh });
      await eventually(() => expect(system.output()).toContain('applying migrations'), { timeoutMs: 60_000, intervalMs: 10 });
      expect(await stopWithCtrlC(system)).toBe(0);
      // Stopping PostgreSQL under the migrate step (or the seed) ends it: that is the stop, not a failure to report.
      const afterStop = system.output().slice(system.output().indexOf('stopping services'));
      expect(afterStop.split('\n').filter(Boolean)).toEqual([
        expect.stringContaining('stopping services'),
        expect.stringContaining('stopping embedded PostgreSQL'),
      ]);
      expect(existsSync(path.join(fresh, 'postgres', 'postmaster.pid'))).toBe(false);
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses a DATA_DIR that is a file, naming it, and leaves the file as it was', async () => {
    const file = path.join(dataDir, 'not-a-directory');
    writeFileSync(file, 'kept');
    const failed = runCli({ ...env, DATA_DIR: file }, 'start');
    expect(failed.status).toBe(1);
    expect(failed.stdout + failed.stderr).toContain(`DATA_DIR: ${file} is a file, not a directory`);
    expect(readFileSync(file, 'utf8')).toBe('kept');
    rmSync(file);
  }, 120_000);

  it('names the file it could not write when the data directory takes no more data, and leaves nothing behind', async () => {
    // A file size limit of 0 fails the first write as a full disk would, with nothing to fill; its signal is ignored,
    // as a disk full sends none, so the write fails with EFBIG instead of killing the process.
    const fresh = await mkdtemp(path.join(tmpdir(), 'storage-start-unwritable-'));
    try {
      const failed = spawnSync('sh', ['-c', `trap '' XFSZ; ulimit -f 0; exec "${process.execPath}" "${cli}" start`], {
        env: { ...env, DATA_DIR: fresh },
        encoding: 'utf8',
      });
      expect(failed.status).toBe(1);
      expect(failed.stdout + failed.stderr).toContain(`could not write ${path.join(fresh, 'start.pid')}: EFBIG: file too large`);
      expect(readdirSync(fresh).filter((name) => name.startsWith('start.pid'))).toEqual([]);
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  }, 120_000);

  it('recovers on the next start when the first start fails, saying why it failed', async () => {
    // The first start of a new data directory fails: its PostgreSQL cannot bind port 1 (a privileged port).
    const fresh = await mkdtemp(path.join(tmpdir(), 'storage-start-failed-'));
    try {
      const failed = runCli({ ...env, DATA_DIR: fresh, EMBEDDED_POSTGRES_PORT: '1' }, 'start');
      expect(failed.status).not.toBe(0);
      // PostgreSQL's own words, not a guess.
      expect(failed.stdout + failed.stderr).toMatch(/could not bind|could not create listen socket/);

      const second = await startSystem({ ...env, DATA_DIR: fresh });
      expect(await stopWithCtrlC(second)).toBe(0);
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  }, 300_000);

  /**
   * Signals npm start (or `target`, one of its processes), then expects npm start and every process it started (and
   * theirs) gone, the ports free and PostgreSQL stopped.
   */
  async function expectNothingLeftAfter(system: number, signal: NodeJS.Signals, target = system): Promise<void> {
    const started = [system, ...descendantPids(system)];
    expect(started.map(commandLine)).toEqual(expect.arrayContaining([expect.stringContaining('postgres-sentinel'), expect.stringMatching(/bin\/postgres -D/)]));
    process.kill(target, signal);
    await eventually(
      async () => {
        expect(started.filter(isRunning).map((pid) => `${pid} ${commandLine(pid)}`)).toEqual([]);
        for (const port of Object.values(ports)) expect(await portIsClosed(port)).toBe(true);
        expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
      },
      { timeoutMs: 30_000, intervalMs: 500 },
    );
  }
});
