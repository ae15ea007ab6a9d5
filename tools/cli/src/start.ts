import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import {
  bootService,
  ConfigError,
  loadPorts,
  serviceAtWorkNow,
  setLogDestination,
  type BootedService,
  type BootOptions,
  type CommonConfig,
  type ServiceDefinition,
} from '@storage/platform';
import { connectionUrl, isReachable, passingFailureOf, readEmbeddedInfo, startEmbeddedPostgres, type RunningEmbeddedPostgres } from '@storage/persistence';
import { repoRoot } from './commands';
import { humanLine, serviceOfLine } from './human-log';
import { applyMigrations } from './migrate-step';
import { AlreadyRunning, claimPidFile } from './supervision/pid-file';

/** What `npm start` does with an app's service definition. */
interface Service {
  /** Throws the ConfigError the app would boot with on this environment. */
  checkConfig: (env: NodeJS.ProcessEnv) => void;
  /** Boots it in this process. */
  boot: (options: BootOptions) => Promise<BootedService>;
}

const served = <Config extends CommonConfig>(definition: ServiceDefinition<Config>): Service => ({
  checkConfig: (env) => void definition.loadConfig(env),
  boot: (options) => bootService(definition, options),
});

interface App {
  /** Its short name, in the terminal's prefixes and messages. */
  name: string;
  /** The name it logs under (its `SERVICE_NAME`). */
  service: string;
  /** Its code, loaded only by `start` (the other commands need none of the three). */
  load: () => Promise<Service>;
  portVariable: string;
  defaultPort: number;
  colour: number;
}

const APPS: App[] = [
  {
    name: 'api',
    service: 'api',
    load: async () => served((await import('@storage/api/dist/service.js')).apiService),
    portVariable: 'API_PORT',
    defaultPort: 3000,
    colour: 36,
  },
  {
    name: 'dispatcher',
    service: 'webhook-dispatcher',
    load: async () => served((await import('@storage/webhook-dispatcher/dist/service.js')).dispatcherService),
    portVariable: 'DISPATCHER_PORT',
    defaultPort: 3001,
    colour: 35,
  },
  {
    name: 'scheduler',
    service: 'delinquency-scheduler',
    load: async () => served((await import('@storage/delinquency-scheduler/dist/service.js')).schedulerService),
    portVariable: 'SCHEDULER_PORT',
    defaultPort: 3002,
    colour: 33,
  },
];

const READY_TIMEOUT_MS = 120_000;
/** A service that has not closed by then is left to the process's exit. */
const CLOSE_TIMEOUT_MS = 15_000;
/** Ctrl-C, `kill`, and a closing terminal stop everything alike. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

const say = (line: string) => process.stdout.write(`\x1b[1m[start]\x1b[0m ${line}\n`);

/** Each app's port, from its variable checked as the app checks it: a bad one is named before anything starts. */
type Ports = Map<App, number>;
const appPorts = (): Ports => {
  const ports = loadPorts(Object.fromEntries(APPS.map((app) => [app.portVariable, app.defaultPort])));
  return new Map(APPS.map((app) => [app, ports[app.portVariable]]));
};

/**
 * Each app's configuration, checked on the environment it will boot with before anything starts: a bad variable is
 * named once (several apps read most), not after PostgreSQL, the migrations and the seed, by the first app to boot.
 */
async function checkConfigs(dataDir: string): Promise<void> {
  const problems = new Set<string>();
  for (const app of APPS) {
    try {
      (await app.load()).checkConfig({ ...process.env, DATA_DIR: dataDir });
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      for (const problem of error.problems) problems.add(problem);
    }
  }
  if (problems.size > 0) throw new ConfigError([...problems]);
}

/**
 * In a terminal, the services' JSON log lines are written for people (`humanLine`), each prefixed with the name of
 * the service that wrote it, so three services can share one terminal. Piped, or with LOG_FORMAT=json, the lines
 * pass as they are: each names its service (`service`).
 */
function terminalLogs(): { write: (chunk: string) => void } | undefined {
  if (!process.stdout.isTTY || process.env.LOG_FORMAT === 'json') return undefined;
  const prefixes = new Map(APPS.map((app) => [app.service, `\x1b[${app.colour}m[${app.name}]\x1b[0m `]));
  return {
    write: (chunk: string) => {
      for (const line of chunk.split('\n').filter(Boolean)) {
        const shown = humanLine(line);
        if (shown !== null) process.stdout.write((prefixes.get(serviceOfLine(line) ?? '') ?? '') + shown + '\n');
      }
    },
  };
}

const portInUse = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

async function waitUntilReady(app: App, port: number): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/health/ready`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${app.name} was not ready within ${READY_TIMEOUT_MS / 1000} s`);
}

/** Runs a CLI of the repository in a process of its own, ended (SIGTERM) when `signal` aborts. */
function runToCompletion(entry: string, args: string[], env: NodeJS.ProcessEnv, signal: AbortSignal): Promise<void> {
  const child = spawn(process.execPath, [path.join(repoRoot, entry), ...args], { stdio: 'inherit', env, signal });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${entry} ${args.join(' ')} failed (${code})`))));
  });
}

function printBanner(dataDir: string, ports: Ports): void {
  const [api, dispatcher, scheduler] = APPS.map((app) => `http://localhost:${ports.get(app)}`);
  const keyFile = path.join(dataDir, 'demo-api-key');
  const key = process.env.DEMO_API_KEY ?? (existsSync(keyFile) ? readFileSync(keyFile, 'utf8').trim() : '<see npm run cli -- api-keys create>');
  say('the storage rental platform is ready');
  say(`  API             ${api}   (docs: ${api}/docs, OpenAPI: ${api}/openapi.json)`);
  say(`  webhook portal  ${dispatcher}/portal   (open the link from GET ${api}/api/v1/webhooks/dashboard-link)`);
  say(`  scheduler       ${scheduler}/health/ready`);
  say(`  demo API key    ${key}`);
  say(`  try it          curl -H 'x-api-key: ${key}' ${api}/api/portfolios`);
  say('press Ctrl-C to stop everything');
}

/**
 * `npm start`: the embedded PostgreSQL (unless DATABASE_URL is set), the migrate step, the demo seed on first boot,
 * then the three services in this process. Ctrl-C (or SIGTERM, SIGHUP) stops the services, then PostgreSQL.
 */
export async function start({ dataDir }: { dataDir: string }): Promise<number> {
  let ports: Ports;
  let release: () => void;
  try {
    ports = appPorts();
    await checkConfigs(dataDir);
    release = claimDataDir(dataDir);
  } catch (error) {
    if (!(error instanceof ConfigError || error instanceof AlreadyRunning)) throw error;
    say(error.message);
    return 1;
  }
  try {
    // Another system (or anything else) on a service port would answer this one's health checks.
    for (const [app, port] of ports) {
      if (await portInUse(port)) {
        say(`port ${port} (${app.name}, ${app.portVariable}) is in use: is the system already running? Stop it, or choose other ports`);
        return 1;
      }
    }
    return await supervise(dataDir, ports);
  } finally {
    release();
  }
}

/** Makes the data directory if it is missing and claims it for this process (`claimPidFile`); returns the release. */
function claimDataDir(dataDir: string): () => void {
  if (existsSync(dataDir) && !statSync(dataDir).isDirectory()) {
    throw new ConfigError([`DATA_DIR: ${dataDir} is a file, not a directory (a directory is made if missing)`]);
  }
  mkdirSync(dataDir, { recursive: true });
  return claimPidFile(dataDir);
}

/** The app whose work failed: the one at work (`asService`), else the one whose code the stack goes through. */
function culprit(error: unknown): App | undefined {
  const service = serviceAtWorkNow();
  const byContext = APPS.find((app) => app.service === service);
  if (byContext) return byContext;
  const stack = error instanceof Error ? (error.stack ?? '') : '';
  return APPS.find((app) => stack.includes(`${path.sep}apps${path.sep}${app.service}${path.sep}`));
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

async function supervise(dataDir: string, ports: Ports): Promise<number> {
  let postgres: RunningEmbeddedPostgres | undefined;
  let databaseUrl = process.env.DATABASE_URL;
  const givenDatabase = Boolean(databaseUrl);
  if (!databaseUrl) {
    const cluster = path.relative(repoRoot, path.join(dataDir, 'postgres')) || dataDir;
    const running = await readEmbeddedInfo(dataDir);
    if (running && (await isReachable(connectionUrl(running)))) {
      // Started by another process (a CLI command, an app run alone): use it and leave it running.
      say(`using the embedded PostgreSQL already running on port ${running.port} (data in ${cluster})`);
      databaseUrl = connectionUrl(running);
    } else {
      say(`starting embedded PostgreSQL (data in ${cluster})`);
      // In a session of its own, out of reach of the terminal's Ctrl-C: stopped below, after the services using it.
      postgres = await startEmbeddedPostgres({ dataDir });
      databaseUrl = postgres.url();
    }
  }

  const running: BootedService[] = [];
  const closing: Promise<void>[] = [];
  /** Aborted when everything stops: it also ends a child at work (the seed). */
  const stop = new AbortController();
  const stopping = (): boolean => stop.signal.aborted;
  let stopped: (code: number) => void = () => undefined;
  const finished = new Promise<number>((resolve) => (stopped = resolve));
  const close = (service: BootedService): Promise<void> => {
    const closed = Promise.race([
      service.close().catch((error: unknown) => void say(`${service.name} did not close cleanly: ${messageOf(error)}`)),
      new Promise<void>((resolve) => setTimeout(resolve, CLOSE_TIMEOUT_MS).unref()),
    ]);
    closing.push(closed);
    return closed;
  };
  const stopAll = async (code: number): Promise<void> => {
    if (stopping()) return;
    stop.abort();
    say('stopping services');
    // The last started first: the api, whose relay feeds the others, stops last.
    for (const service of [...running].reverse()) await close(service);
    await Promise.all(closing);
    if (postgres) {
      say('stopping embedded PostgreSQL');
      await postgres.stop();
    }
    stopped(code);
  };
  for (const signal of STOP_SIGNALS) process.once(signal, () => void stopAll(0));
  // Nothing works without it, and nothing here restarts it: PostgreSQL's words, then a clean stop (the next start
  // recovers the cluster, or says why it cannot).
  void postgres?.exited.then((lastLines) => {
    if (stopping()) return;
    say(`embedded PostgreSQL stopped on its own; it said:\n${lastLines.join('\n')}\nstopping everything`);
    void stopAll(1);
  });
  // One process for the three: an error none of them caught is a crash of the whole, stopped as a whole.
  const crashed = (error: unknown) => {
    if (stopping()) return;
    say(`${culprit(error)?.name ?? 'a service'} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}; stopping everything`);
    void stopAll(1);
  };
  process.on('uncaughtException', crashed).on('unhandledRejection', crashed);

  // Beside the stop, not before it: a stop does not wait for a step that waits (the migrate step behind another
  // session's lock), and what a stop ends (PostgreSQL stopped under the migrate step or the seed) is no failure.
  void (async () => {
    const env = { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir };
    await applyMigrations(databaseUrl, say);
    say('seeding the demo portfolio (first boot only)');
    await runToCompletion('apps/api/dist/cli.js', ['seed', 'demo', '--if-empty'], env, stop.signal);

    // The services read their configuration from the environment, as each does alone.
    Object.assign(process.env, { DATABASE_URL: databaseUrl, DATA_DIR: dataDir });
    setLogDestination(terminalLogs());
    for (const app of APPS) {
      if (stopping()) break;
      try {
        const loaded = await app.load();
        await loaded.boot({
          abortOnError: false,
          // Registered as soon as it listens: a stop while its transports start closes it too.
          listening: (service) => (stopping() ? void close(service) : void running.push(service)),
        });
      } catch (error) {
        if (stopping()) break;
        say(`${app.name} failed to start (${messageOf(error)}); stopping everything`);
        await stopAll(1);
      }
    }
    if (!stopping()) {
      await Promise.race([Promise.all([...ports].map(([app, port]) => waitUntilReady(app, port))), finished]);
      if (!stopping()) printBanner(dataDir, ports);
    }
  })().catch(async (error: unknown) => {
    if (stopping()) return;
    // A database of the user's own that does not answer is named (its host, never the URL: it holds a password).
    const away = givenDatabase && passingFailureOf(error) === 'unavailable';
    say(away ? `the database at ${new URL(databaseUrl).host} (DATABASE_URL) is not reachable (${messageOf(error)})` : messageOf(error));
    await stopAll(1);
  });
  return finished;
}
