import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { childPids, freePort, postmasterPid } from '@storage/testing';

// Compiled to dist-bench/ (bench/tsconfig.json): up to the workspace, then to the repository.
const repoRoot = path.resolve(__dirname, '..', '..', '..');
const READY_TIMEOUT_MS = 120_000;
/** Node flags for `start`'s process, for a profiling run (`BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof'`). */
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');

/** `npm start` as a user runs it, on a scratch data directory and free ports. */
export interface ScratchSystem {
  /** The process of `start`, which runs the three apps. */
  pid: number;
  dataDir: string;
  apiPort: number;
  /** The processes `start` started and still runs besides PostgreSQL's server (its sentinel; an app run as a child process). */
  startedApplicationProcesses: () => number[];
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
  const apiPort = await freePort();
  const system: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [...(await startScriptNodeOptions()), ...NODE_ARGS, path.join(repoRoot, 'tools/cli/dist/main.js'), 'start'],
    {
      env: {
        ...process.env,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        EMBEDDED_POSTGRES_PORT: String(await freePort()),
        API_PORT: String(apiPort),
        DISPATCHER_PORT: String(await freePort()),
        SCHEDULER_PORT: String(await freePort()),
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
