import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { connectionUrl, isReachable, readEmbeddedInfo, startHostedPostgres, type RunningEmbeddedPostgres } from '@storage/persistence';
import { repoRoot } from './commands';
import { humanLine } from './human-log';
import { applyMigrations } from './migrate-step';
import { AlreadyRunning, claimPidFile } from './supervision/pid-file';

interface App {
  name: string;
  entry: string;
  portVariable: string;
  defaultPort: number;
  colour: number;
}

const APPS: App[] = [
  { name: 'api', entry: 'apps/api/dist/main.js', portVariable: 'API_PORT', defaultPort: 3000, colour: 36 },
  { name: 'dispatcher', entry: 'apps/webhook-dispatcher/dist/main.js', portVariable: 'DISPATCHER_PORT', defaultPort: 3001, colour: 35 },
  { name: 'scheduler', entry: 'apps/delinquency-scheduler/dist/main.js', portVariable: 'SCHEDULER_PORT', defaultPort: 3002, colour: 33 },
];

const READY_TIMEOUT_MS = 120_000;
/** Each service is started with it preloaded: it stops the service when the supervisor dies, however it dies. */
const PARENT_WATCH = path.join(__dirname, 'supervision', 'parent-watch.js');
/** Ctrl-C, `kill`, and a closing terminal stop everything alike. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

const say = (line: string) => process.stdout.write(`\x1b[1m[start]\x1b[0m ${line}\n`);
const portOf = (app: App) => Number(process.env[app.portVariable] ?? app.defaultPort);

/**
 * Prefixes every line a child writes with its name, so three services can share one terminal. In a terminal the
 * JSON log lines are written for people (`humanLine`); piped, or with LOG_FORMAT=json, they pass as they are.
 */
function pipeWithPrefix(child: ChildProcess, app: App): void {
  const prefix = `\x1b[${app.colour}m[${app.name}]\x1b[0m `;
  const human = process.stdout.isTTY && process.env.LOG_FORMAT !== 'json';
  for (const stream of [child.stdout, child.stderr]) {
    let pending = '';
    stream?.on('data', (chunk: Buffer) => {
      const lines = (pending + chunk.toString('utf8')).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const shown = human ? humanLine(line) : line;
        if (shown !== null) process.stdout.write(prefix + shown + '\n');
      }
    });
  }
}

const portInUse = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

async function waitUntilReady(app: App, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${app.name} exited with code ${child.exitCode} before it was ready`);
    try {
      const response = await fetch(`http://127.0.0.1:${portOf(app)}/health/ready`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${app.name} was not ready within ${READY_TIMEOUT_MS / 1000} s`);
}

function runToCompletion(entry: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const child = spawn(process.execPath, [path.join(repoRoot, entry), ...args], { stdio: 'inherit', env });
  return new Promise((resolve, reject) =>
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${entry} ${args.join(' ')} failed (${code})`)))),
  );
}

function printBanner(dataDir: string): void {
  const api = `http://localhost:${portOf(APPS[0])}`;
  const keyFile = path.join(dataDir, 'demo-api-key');
  const key = process.env.DEMO_API_KEY ?? (existsSync(keyFile) ? readFileSync(keyFile, 'utf8').trim() : '<see npm run cli -- api-keys create>');
  say('the storage rental platform is ready');
  say(`  API             ${api}   (docs: ${api}/docs, OpenAPI: ${api}/openapi.json)`);
  say(`  webhook portal  http://localhost:${portOf(APPS[1])}/portal   (open the link from GET ${api}/api/v1/webhooks/dashboard-link)`);
  say(`  scheduler       http://localhost:${portOf(APPS[2])}/health/ready`);
  say(`  demo API key    ${key}`);
  say(`  try it          curl -H 'x-api-key: ${key}' ${api}/api/portfolios`);
  say('press Ctrl-C to stop everything');
}

/**
 * `npm start`: the embedded PostgreSQL (unless DATABASE_URL is set), the migrate step, the demo seed on first boot,
 * then the three services as child processes. Ctrl-C (or SIGTERM) stops the services, then PostgreSQL.
 */
export async function start({ dataDir }: { dataDir: string }): Promise<number> {
  mkdirSync(dataDir, { recursive: true });
  let release: () => void;
  try {
    release = claimPidFile(dataDir);
  } catch (error) {
    if (!(error instanceof AlreadyRunning)) throw error;
    say(error.message);
    return 1;
  }
  try {
    // Another system (or anything else) on a service port would answer this one's health checks.
    for (const app of APPS) {
      if (await portInUse(portOf(app))) {
        say(`port ${portOf(app)} (${app.name}, ${app.portVariable}) is in use: is the system already running? Stop it, or choose other ports`);
        return 1;
      }
    }
    return await supervise(dataDir);
  } finally {
    release();
  }
}

async function supervise(dataDir: string): Promise<number> {
  let postgres: RunningEmbeddedPostgres | undefined;
  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    const cluster = path.relative(repoRoot, path.join(dataDir, 'postgres')) || dataDir;
    const running = await readEmbeddedInfo(dataDir);
    if (running && (await isReachable(connectionUrl(running)))) {
      // Started by another process (a CLI command, an app run alone): use it and leave it running.
      say(`using the embedded PostgreSQL already running on port ${running.port} (data in ${cluster})`);
      databaseUrl = connectionUrl(running);
    } else {
      say(`starting embedded PostgreSQL (data in ${cluster})`);
      // Hosted out of reach of the terminal's Ctrl-C: stopped below, after the services using it.
      postgres = await startHostedPostgres({ dataDir });
      databaseUrl = postgres.url();
    }
  }
  const children: ChildProcess[] = [];
  let stopping = false;
  const stopAll = async (code: number): Promise<number> => {
    if (stopping) return code;
    stopping = true;
    say('stopping services');
    await Promise.all(
      children
        // A child killed by a signal keeps exitCode null: it has exited too, and waiting for it would hang.
        .filter((child) => child.exitCode === null && child.signalCode === null)
        .map(
          (child) =>
            new Promise((resolve) => {
              child.once('exit', resolve);
              child.kill('SIGTERM');
              setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
            }),
        ),
    );
    if (postgres) {
      say('stopping embedded PostgreSQL');
      await postgres.stop();
    }
    return code;
  };

  try {
    const env = { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir };
    await applyMigrations(databaseUrl, say);
    say('seeding the demo portfolio (first boot only)');
    await runToCompletion('apps/api/dist/cli.js', ['seed', 'demo', '--if-empty'], env);

    const stopped = new Promise<number>((resolve) => {
      for (const signal of STOP_SIGNALS) process.once(signal, () => void stopAll(0).then(resolve));
      for (const app of APPS) {
        // fd 3: a pipe only this process holds, which parent-watch sees close when it dies.
        const child = spawn(process.execPath, ['--require', PARENT_WATCH, path.join(repoRoot, app.entry)], { env, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
        pipeWithPrefix(child, app);
        child.once('exit', (code, signal) => {
          if (stopping) return;
          say(`${app.name} exited unexpectedly (${signal === null ? `code ${code}` : `killed by ${signal}`}); stopping everything`);
          void stopAll(1).then(resolve);
        });
        children.push(child);
      }
    });
    await Promise.all(APPS.map((app, index) => waitUntilReady(app, children[index])));
    printBanner(dataDir);
    return await stopped;
  } catch (error) {
    say(error instanceof Error ? error.message : String(error));
    return stopAll(1);
  }
}
