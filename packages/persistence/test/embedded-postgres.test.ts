import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { appendFile, chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { freePort, locateDatabase, query, sql, startEmbeddedPostgres, type RunningEmbeddedPostgres } from '../src';
import { eventually } from './support/eventually';

/** This package as other processes load it. */
const builtPackage = path.resolve(__dirname, '../dist/index.js');

async function queryAt<T>(url: string, text: string): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await query(client, sql<T>(text));
  } finally {
    await client.end();
  }
}

/** Expects the server to answer a query, then stops it. */
async function expectServing(server: RunningEmbeddedPostgres): Promise<void> {
  try {
    expect(await queryAt<{ ok: number }>(server.url(), 'SELECT 1 AS ok')).toEqual([{ ok: 1 }]);
  } finally {
    await server.stop();
  }
}

describe('embedded PostgreSQL', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'storage-embedded-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps its data across a stop and a start', async () => {
    // A port free now: a fixed one (54390, in the OS's ephemeral range) was once taken by another suite's server in CI.
    const first = await startEmbeddedPostgres({ dataDir, port: await freePort() });
    await queryAt(first.url(), "CREATE TABLE kept (note text); INSERT INTO kept VALUES ('still here')");
    await first.stop();

    const second = await startEmbeddedPostgres({ dataDir });
    try {
      const rows = await queryAt<{ note: string }>(second.url(), 'SELECT note FROM kept');
      expect(rows).toEqual([{ note: 'still here' }]);
    } finally {
      await second.stop();
    }
  });

  it('wakes autovacuum and checkpoints seldom when idle, durability untouched', async () => {
    const server = await startEmbeddedPostgres({ dataDir, port: await freePort() });
    try {
      const settings = await queryAt<{ name: string; setting: string }>(
        server.url(),
        "SELECT name, setting FROM pg_settings WHERE name IN ('autovacuum_naptime', 'checkpoint_timeout', 'fsync', 'synchronous_commit') ORDER BY name",
      );
      expect(settings).toEqual([
        { name: 'autovacuum_naptime', setting: '300' },
        { name: 'checkpoint_timeout', setting: '900' },
        { name: 'fsync', setting: 'on' },
        { name: 'synchronous_commit', setting: 'on' },
      ]);
    } finally {
      await server.stop();
    }
  });

  it('is found and reused by a second process rather than started twice', async () => {
    const server = await startEmbeddedPostgres({ dataDir });
    try {
      const located = await locateDatabase({ dataDir });
      expect(located.url).toEqual(server.url());
      await located.release();
      const rows = await queryAt<{ ok: number }>(located.url, 'SELECT 1 AS ok');
      expect(rows).toEqual([{ ok: 1 }]);
    } finally {
      await server.stop();
    }
  });

  it('started for a process (a service run alone), outlives a Ctrl-C to the process group until the process releases it', async () => {
    // A process of its own group, as a terminal runs a command: it locates the database (starting it) and, on
    // SIGINT, says whether the database still answers, then releases it.
    const script = `
      const { locateDatabase } = require(${JSON.stringify(path.resolve(__dirname, '../dist'))});
      const { Client } = require('pg');
      locateDatabase({ dataDir: ${JSON.stringify(dataDir)} }).then((database) => {
        process.once('SIGINT', async () => {
          const client = new Client({ connectionString: database.url });
          client.on('error', () => undefined);
          const answer = await client.connect().then(() => client.query('SELECT 1')).then(() => 'still up', (e) => 'gone: ' + e.message);
          await client.end().catch(() => undefined);
          console.log(answer);
          await database.release();
          process.exit(0);
        });
        console.log('located');
      });`;
    const alone = spawn(process.execPath, ['-e', script], { detached: true, cwd: __dirname });
    let output = '';
    const located = new Promise<void>((resolve) =>
      alone.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('located')) resolve();
      }),
    );
    alone.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => alone.once('exit', (code) => resolve(code)));
    await Promise.race([located, exited]);
    expect(output).toContain('located');
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(true);

    process.kill(-alone.pid!, 'SIGINT');
    expect(await exited).toBe(0);
    expect(output).toContain('still up');
    // Released: stopped, and waited for.
    expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
  }, 90_000);

  it('never outlives the process that started it, killed with SIGKILL, and runs no Node process of its own', async () => {
    const script = `
      const { startEmbeddedPostgres } = require(${JSON.stringify(path.resolve(__dirname, '../dist'))});
      startEmbeddedPostgres({ dataDir: ${JSON.stringify(dataDir)} }).then(() => console.log('started'));`;
    const starter = spawn(process.execPath, ['-e', script], { cwd: __dirname });
    let output = '';
    starter.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const started = new Promise<void>((resolve) =>
      starter.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('started')) resolve();
      }),
    );
    const exited = new Promise<void>((resolve) => starter.once('exit', () => resolve()));
    await Promise.race([started, exited]);
    expect(output).toContain('started');
    // Its children: the server and the sentinel that stops it, a shell; no Node process.
    const children = childrenOf(starter.pid!);
    try {
      expect(children.map(commandLine).sort()).toEqual([expect.stringContaining('postgres-sentinel'), expect.stringMatching(/bin\/postgres -D/)]);
    } finally {
      starter.kill('SIGKILL');
    }
    await exited;
    await eventually(
      () => {
        expect(children.filter(isRunning).map(commandLine)).toEqual([]);
        expect(existsSync(path.join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
      },
      { timeoutMs: 30_000, intervalMs: 100 },
    );
  }, 90_000);

  describe('a data directory left by a start that failed', () => {
    let fresh: string;
    beforeEach(async () => {
      fresh = await mkdtemp(path.join(tmpdir(), 'storage-embedded-failed-'));
    });
    afterEach(async () => {
      await rm(fresh, { recursive: true, force: true });
    });

    it('is started by the next start, and the failure says what PostgreSQL said', async () => {
      // Port 1 is privileged: the server the cluster was initialised for cannot bind it.
      await expect(startEmbeddedPostgres({ dataDir: fresh, port: 1 })).rejects.toThrow(/could not bind|could not create listen socket/);
      // The port that failed is not recorded as the cluster's: the next start told no port takes the default.
      expect(JSON.parse(await readFile(path.join(fresh, 'postgres.json'), 'utf8'))).toMatchObject({ port: 54329 });
      await expectServing(await startEmbeddedPostgres({ dataDir: fresh, port: await freePort() }));
    }, 90_000);

    it('suggests EMBEDDED_POSTGRES_PORT only when the port is what failed', async () => {
      const port = await freePort();
      const holder = createServer();
      await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
      try {
        await expect(startEmbeddedPostgres({ dataDir: fresh, port })).rejects.toThrow(
          /choose another port with EMBEDDED_POSTGRES_PORT[^]*Address already in use/,
        );
      } finally {
        await new Promise((resolve) => holder.close(resolve));
      }
      // A setting PostgreSQL refuses (here one left in the cluster's own configuration) is not a port's fault.
      await (await startEmbeddedPostgres({ dataDir: fresh, port: await freePort() })).stop();
      await appendFile(path.join(fresh, 'postgres', 'postgresql.auto.conf'), "work_mem = 'lots'\n");
      const refused = startEmbeddedPostgres({ dataDir: fresh, port: await freePort() });
      await expect(refused).rejects.toThrow(/invalid value for parameter "work_mem"/);
      await expect(refused).rejects.not.toThrow(/EMBEDDED_POSTGRES_PORT/);
    }, 90_000);

    it('is initialised and started under a locale the machine does not have (a terminal’s LANG from another machine), in UTF-8 with Unicode case rules', async () => {
      const before = { LANG: process.env.LANG, LC_ALL: process.env.LC_ALL };
      Object.assign(process.env, { LANG: 'xx_XX.UTF-8', LC_ALL: 'xx_XX.UTF-8' });
      let server: RunningEmbeddedPostgres;
      try {
        server = await startEmbeddedPostgres({ dataDir: fresh, port: await freePort() });
      } finally {
        for (const [name, value] of Object.entries(before)) {
          if (value === undefined) delete process.env[name];
          else process.env[name] = value;
        }
      }
      try {
        const [database] = await queryAt<Record<string, string>>(
          server.url(),
          "SELECT pg_encoding_to_char(encoding) AS encoding, datlocale AS locale, lower('ÉCOLE') AS lowered FROM pg_database WHERE datname = current_database()",
        );
        expect(database).toEqual({ encoding: 'UTF8', locale: 'C.UTF-8', lowered: 'école' });
      } finally {
        await server.stop();
      }
    }, 90_000);

    it('is initialised anew when an earlier version left its cluster without connection details and without data', async () => {
      // What a failed first start of earlier versions left: an initialised cluster, no database of ours in it,
      // whose password nobody kept.
      const first = await startEmbeddedPostgres({ dataDir: fresh, port: await freePort() });
      await queryAt(first.url('postgres'), 'DROP DATABASE storage');
      await first.stop();
      await rm(path.join(fresh, 'postgres.json'));
      await expectServing(await startEmbeddedPostgres({ dataDir: fresh, port: await freePort() }));
    }, 90_000);

    it('hands initdb its password in a file no other user can find, and leaves none behind, nor what a killed start left', async () => {
      // In a process of its own, as npm start runs it: jest gives a test a process.env of its own, which os.tmpdir()
      // does not read.
      const starter = spawn(process.execPath, [
        '-e',
        `require(${JSON.stringify(builtPackage)}).startEmbeddedPostgres({ dataDir: ${JSON.stringify(fresh)}, port: ${await freePort()} }).then((server) => server.stop())`,
      ]);
      const exited = new Promise((resolve) => starter.once('exit', resolve));
      const pgdata = `--pgdata=${path.join(fresh, 'postgres')}`;
      let pwfile = '';
      await eventually(
        () => {
          const initdb = childrenOf(starter.pid!)
            .map(commandLine)
            .find((line) => line.includes(pgdata));
          pwfile = /--pwfile=(\S+)/.exec(initdb ?? '')?.[1] ?? '';
          expect(pwfile).not.toBe('');
        },
        { timeoutMs: 60_000, intervalMs: 5 },
      );
      // Not in the machine's temporary directory, which every user lists and reads; in one only its owner lists.
      expect(path.dirname(pwfile)).not.toBe(tmpdir());
      expect(statSync(path.dirname(pwfile)).mode & 0o777).toBe(0o711);
      expect(await exited).toBe(0);
      expect(existsSync(path.dirname(pwfile))).toBe(false);

      // What a start killed during initdb leaves is removed by the next.
      await rm(path.join(fresh, 'postgres'), { recursive: true });
      await mkdir(path.dirname(pwfile), { mode: 0o711 });
      await writeFile(pwfile, 'left by a killed start\n');
      await expectServing(await startEmbeddedPostgres({ dataDir: fresh, port: await freePort() }));
      expect(existsSync(path.dirname(pwfile))).toBe(false);
    }, 90_000);

    it('is initialised anew when a first start was killed during initdb', async () => {
      // What initdb killed midway leaves: the version file it writes first, a cluster it never finished, and the
      // connection details written before it ran.
      await mkdir(path.join(fresh, 'postgres'), { recursive: true });
      await writeFile(path.join(fresh, 'postgres', 'PG_VERSION'), '18\n');
      await writeFile(path.join(fresh, 'postgres.json'), JSON.stringify({ port: await freePort(), user: 'storage', password: 'left-by-a-killed-start' }));
      await expectServing(await startEmbeddedPostgres({ dataDir: fresh, port: await freePort() }));
    }, 90_000);

    it('under root, is refused before anything is written when its postgres user cannot reach the data directory, naming the directory', async () => {
      // The project cloned by root under /root (mode 700): root's postgres user cannot enter it.
      const locked = fresh;
      await chmod(locked, 0o700);
      const dataDir = path.join(locked, 'data');
      const port = await freePort();
      if (process.getuid?.() !== 0) {
        // The server runs as the directory's owner, who can enter it.
        return expectServing(await startEmbeddedPostgres({ dataDir, port }));
      }
      await expect(startEmbeddedPostgres({ dataDir, port })).rejects.toThrow(
        `Under root, the embedded PostgreSQL runs as the "postgres" user, which cannot enter ${locked} (mode 700)`,
      );
      expect(existsSync(path.join(dataDir, 'postgres.json'))).toBe(false);
      expect(existsSync(path.join(dataDir, 'postgres'))).toBe(false);
      // Opened as the error says, the next start works.
      await chmod(locked, 0o711);
      await expectServing(await startEmbeddedPostgres({ dataDir, port }));
    }, 90_000);

    it('is refused, naming the file, when a cluster that holds data lost its connection details', async () => {
      const first = await startEmbeddedPostgres({ dataDir: fresh, port: await freePort() });
      await first.stop();
      await rm(path.join(fresh, 'postgres.json'));
      await expect(startEmbeddedPostgres({ dataDir: fresh, port: await freePort() })).rejects.toThrow(/postgres\.json/);
      expect(existsSync(path.join(fresh, 'postgres', 'PG_VERSION'))).toBe(true);
    }, 90_000);
  });

  it('uses DATABASE_URL when it is given, starting nothing', async () => {
    const located = await locateDatabase({ databaseUrl: 'postgres://elsewhere:5432/db', dataDir: '/nonexistent' });
    expect(located).toMatchObject({ url: 'postgres://elsewhere:5432/db', embedded: false });
  });

  it('refuses a DATABASE_URL pg could not connect with, naming the variable without quoting it', async () => {
    for (const databaseUrl of ['notaurl', 'mysql://user:secret@db/x', 'postgresql:/db']) {
      const refused = locateDatabase({ databaseUrl, dataDir: '/nonexistent' });
      await expect(refused).rejects.toThrow('DATABASE_URL: must be a postgres:// connection URL');
      await expect(refused).rejects.not.toThrow(databaseUrl);
    }
  });
});

// The /proc helpers of @storage/testing (isRunning, commandLine), which depends on this package: its tests cannot use them.

/** Alive and not a zombie waiting to be reaped. */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** The pids whose parent is `pid`, from /proc. */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((candidate) => {
      try {
        // The fields after the command name (in parentheses, which may hold spaces): state, then ppid.
        const stat = readFileSync(`/proc/${candidate}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    });
}

const commandLine = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '(exited)';
  }
};
