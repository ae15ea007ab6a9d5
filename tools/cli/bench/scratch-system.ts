import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { childPids, freePort, postmasterPid } from '@storage/testing';

// Compiled to dist-bench/ (bench/tsconfig.json): up to the workspace, then to the repository.
const repoRoot = path.resolve(__dirname, '..', '..', '..');
const READY_TIMEOUT_MS = 120_000;
/** A loaded event loop answers SIGUSR2 within milliseconds; a process that does not in this long is gone or stuck. */
const LOOP_METER_TIMEOUT_MS = 10_000;
/** Node flags for `start`'s process, for a profiling run (`BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof'`). */
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');

export interface EventLoopReading {
  active: number;
  idle: number;
}

/** The share of `after - before` the event loop was busy. */
export const eventLoopUtilization = (before: EventLoopReading, after: EventLoopReading): number =>
  (after.active - before.active) / (after.active - before.active + after.idle - before.idle);

/** `npm start` as a user runs it, on a scratch data directory and free ports. */
export interface ScratchSystem {
  /** The process of `start`, which runs the three apps. */
  pid: number;
  dataDir: string;
  apiPort: number;
  /** The processes `start` started and still runs besides PostgreSQL's server (its sentinel; an app run as a child process). */
  startedApplicationProcesses: () => number[];
  /** The event loop's busy and idle milliseconds so far in `start`'s process (loop-meter.ts). */
  eventLoop: () => Promise<EventLoopReading>;
  /** Ctrl-C, then the scratch data directory removed. */
  stop: () => Promise<void>;
}

/** The Node options of the root `start` script (`node <options> tools/cli/dist/main.js start`): the bench runs it as `npm start` does. */
async function startScriptNodeOptions(): Promise<string[]> {
  const manifest = JSON.parse(await readFile(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const options = /\bnode ((?:--\S+ )*)tools\/cli\/dist\/main\.js start/.exec(manifest.scripts.start);
  if (!options) throw new Error(`the root start script does not run tools/cli/dist/main.js start: ${manifest.scripts.start}`);
  return options[1].split(' ').filter(Boolean);
}

/** Boots `start` with `env` on top of the scratch directory and free ports; resolves once it says it is ready. */
export async function startScratchSystem(env: NodeJS.ProcessEnv = {}): Promise<ScratchSystem> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'storage-bench-'));
  const [apiPort, postgresPort, dispatcherPort, schedulerPort] = await distinctFreePorts(4);
  const loopMeterFile = path.join(dataDir, 'bench-event-loop.json');
  const system: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [...(await startScriptNodeOptions()), '-r', path.join(__dirname, 'loop-meter.js'), ...NODE_ARGS, path.join(repoRoot, 'tools/cli/dist/main.js'), 'start'],
    {
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        BENCH_LOOP_METER_FILE: loopMeterFile,
        LOG_LEVEL: 'warn',
        EMBEDDED_POSTGRES_PORT: String(postgresPort),
        API_PORT: String(apiPort),
        DISPATCHER_PORT: String(dispatcherPort),
        SCHEDULER_PORT: String(schedulerPort),
        ...env,
      },
    },
  );
  let output = '';
  system.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  system.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!output.includes('is ready')) {
    if (Date.now() > deadline || system.exitCode !== null) throw new Error(`the system did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const postmaster = postmasterPid(path.join(dataDir, 'postgres'));
  return {
    pid: system.pid!,
    dataDir,
    apiPort,
    eventLoop: async () => {
      const last = existsSync(loopMeterFile) ? readLoopMeter(loopMeterFile).reading : 0;
      system.kill('SIGUSR2');
      const deadline = Date.now() + LOOP_METER_TIMEOUT_MS;
      while (Date.now() < deadline) {
        if (existsSync(loopMeterFile)) {
          const { reading, ...times } = readLoopMeter(loopMeterFile);
          if (reading > last) return times;
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      throw new Error(`start's process did not report its event loop within ${LOOP_METER_TIMEOUT_MS} ms (exit code ${system.exitCode})`);
    },
    startedApplicationProcesses: () => childPids(system.pid!).filter((pid) => pid !== postmaster),
    stop: async () => {
      if (system.exitCode === null) {
        const exited = new Promise((resolve) => system.once('exit', resolve));
        system.kill('SIGINT');
        await exited;
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

const readLoopMeter = (file: string): EventLoopReading & { reading: number } =>
  JSON.parse(readFileSync(file, 'utf8')) as EventLoopReading & { reading: number };

/** `count` free ports, no two alike: each is free when picked, and picking at random can repeat one. */
async function distinctFreePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}
