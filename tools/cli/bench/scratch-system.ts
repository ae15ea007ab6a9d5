import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '@storage/persistence';
import { childPids, commandLine, freePort, postmasterPid } from '@storage/testing';
import { nameOfProcess } from './process-names';

// Compiled to dist-bench/ (bench/tsconfig.json): up to the workspace, then to the repository.
const repoRoot = path.resolve(__dirname, '..', '..', '..');
const READY_TIMEOUT_MS = 120_000;
/** A loaded event loop answers SIGUSR2 within milliseconds; a process that does not in this long is gone or stuck. */
const LOOP_METER_TIMEOUT_MS = 10_000;
/** Node flags for the apps' processes, for a profiling run (`BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof'`). */
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');
const APPS = ['api', 'webhook-dispatcher', 'delinquency-scheduler'] as const;

export interface EventLoopReading {
  active: number;
  idle: number;
}

/** The share of `after - before` the event loop was busy. */
export const eventLoopUtilization = (before: EventLoopReading, after: EventLoopReading): number =>
  (after.active - before.active) / (after.active - before.active + after.idle - before.idle);

/** An application process: one that runs apps, or one started beside them (PostgreSQL's sentinel). */
export interface ApplicationProcess {
  pid: number;
  name: string;
}

/**
 * The system on a scratch data directory and free ports: `npm start` as a user runs it (the three apps in its process),
 * or, `apart`, each app alone in its process as deployed (`node apps/<app>/dist/main.js`) on the embedded PostgreSQL.
 */
export interface ScratchSystem {
  dataDir: string;
  apiPort: number;
  /** What the apps cost is read from: every application process but PostgreSQL's server, live. */
  applicationProcesses: () => ApplicationProcess[];
  /** The busy and idle milliseconds so far of the event loop of each process that runs apps (loop-meter.ts), by name. */
  eventLoops: () => Promise<Map<string, EventLoopReading>>;
  /** Ctrl-C (apart: SIGTERM to each app, then PostgreSQL stopped), then the scratch data directory removed. */
  stop: () => Promise<void>;
}

/** The Node options of the root `start` script (`node <options> tools/cli/dist/main.js start`): the bench runs it as `npm start` does. */
async function startScriptNodeOptions(): Promise<string[]> {
  const manifest = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const options = /\bnode ((?:--\S+ )*)tools\/cli\/dist\/main\.js start/.exec(manifest.scripts.start);
  if (!options) throw new Error(`the root start script does not run tools/cli/dist/main.js start: ${manifest.scripts.start}`);
  return options[1].split(' ').filter(Boolean);
}

/** A process that runs apps, answering for its event loop on SIGUSR2. */
interface Metered {
  name: string;
  child: ChildProcess;
  loopMeterFile: string;
}

/** Boots the system with `env` on top of the scratch directory and free ports; resolves once it is ready. */
export async function startScratchSystem(env: NodeJS.ProcessEnv = {}, { apart = false } = {}): Promise<ScratchSystem> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'storage-bench-'));
  const [apiPort, postgresPort, dispatcherPort, schedulerPort] = await distinctFreePorts(4);
  const systemEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    EMBEDDED_POSTGRES_PORT: String(postgresPort),
    API_PORT: String(apiPort),
    DISPATCHER_PORT: String(dispatcherPort),
    SCHEDULER_PORT: String(schedulerPort),
    ...env,
  };
  const nodeOptions = await startScriptNodeOptions();
  const metered = (name: string, script: string, args: string[], extraEnv: NodeJS.ProcessEnv = {}): Metered => {
    const loopMeterFile = path.join(dataDir, `bench-event-loop-${name}.json`);
    const child = spawn(process.execPath, [...nodeOptions, '-r', path.join(__dirname, 'loop-meter.js'), ...NODE_ARGS, path.join(repoRoot, script), ...args], {
      env: { ...systemEnv, ...extraEnv, BENCH_LOOP_METER_FILE: loopMeterFile },
    });
    child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    // The log lines a user's `npm start` writes (info: a line per request), read and dropped as a log collector would.
    child.stdout?.resume();
    return { name, child, loopMeterFile };
  };
  const start = () => metered("npm start's process (the three apps)", 'tools/cli/dist/main.js', ['start']);

  if (!apart) {
    const system = start();
    await untilReady(system.child);
    const postmaster = postmasterPid(path.join(dataDir, 'postgres'));
    return {
      dataDir,
      apiPort,
      applicationProcesses: () => [
        { pid: system.child.pid!, name: system.name },
        ...childPids(system.child.pid!)
          .filter((pid) => pid !== postmaster)
          .map((pid) => ({ pid, name: nameOfProcess(commandLine(pid)) })),
      ],
      eventLoops: async () => new Map([[system.name, await eventLoop(system)]]),
      stop: async () => {
        await stopped(system.child, 'SIGINT');
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  }

  // `start` once, for what it does before the apps boot (migrations, the demo portfolio), then each app alone.
  const first = start();
  await untilReady(first.child);
  await stopped(first.child, 'SIGINT');
  const postgres = await startEmbeddedPostgres({ dataDir });
  const apps = APPS.map((app) => metered(app, `apps/${app}/dist/main.js`, [], { DATABASE_URL: postgres.url() }));
  const ports = [apiPort, dispatcherPort, schedulerPort];
  await Promise.all(ports.map((port, i) => untilHealthy(port, apps[i].child)));
  return {
    dataDir,
    apiPort,
    applicationProcesses: () => apps.map(({ name, child }) => ({ pid: child.pid!, name })),
    eventLoops: async () => new Map(await Promise.all(apps.map(async (app) => [app.name, await eventLoop(app)] as const))),
    stop: async () => {
      await Promise.all(apps.map(({ child }) => stopped(child, 'SIGTERM')));
      await postgres.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Resolves once `start` says the system is ready. */
async function untilReady(child: ChildProcess): Promise<void> {
  let output = '';
  const read = (chunk: Buffer) => (output += chunk.toString());
  child.stdout?.on('data', read);
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!output.includes('is ready')) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the system did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.stdout?.off('data', read);
}

/** Resolves once an app alone answers its readiness probe. */
async function untilHealthy(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const ready = await fetch(`http://127.0.0.1:${port}/health/ready`).then(
      (answer) => answer.ok,
      () => false,
    );
    if (ready) return;
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`the app on port ${port} did not become ready`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

async function stopped(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(signal);
  await exited;
}

/** The process's event loop so far: asked by SIGUSR2, answered in its file (loop-meter.ts). */
async function eventLoop({ child, loopMeterFile }: Metered): Promise<EventLoopReading> {
  const last = existsSync(loopMeterFile) ? readLoopMeter(loopMeterFile).reading : 0;
  child.kill('SIGUSR2');
  const deadline = Date.now() + LOOP_METER_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (existsSync(loopMeterFile)) {
      const { reading, ...times } = readLoopMeter(loopMeterFile);
      if (reading > last) return times;
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`process ${child.pid} did not report its event loop within ${LOOP_METER_TIMEOUT_MS} ms (exit code ${child.exitCode})`);
}

const readLoopMeter = (file: string): EventLoopReading & { reading: number } =>
  JSON.parse(readFileSync(file, 'utf8')) as EventLoopReading & { reading: number };

/** `count` free ports, no two alike: each is free when picked, and picking at random can repeat one. */
async function distinctFreePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}
