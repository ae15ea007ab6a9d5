import { spawn, spawnSync, type ChildProcessWithoutNullStreams, type SpawnSyncReturns } from 'node:child_process';
import path from 'node:path';
import { eventually, freePort } from '@storage/testing';

/** The CLI as `npm run cli --` runs it. */
export const cli = path.resolve(__dirname, '../../dist/main.js');

export interface RunningSystem {
  process: ChildProcessWithoutNullStreams;
  output: () => string;
}

/**
 * The environment of a system of its own: its data directory, free ports for every part, and business dates run by
 * the CLI only (a test runs dates of its choosing, not the clock's), with `extra` on top.
 */
export async function systemEnv(dataDir: string, extra: NodeJS.ProcessEnv = {}): Promise<{ env: NodeJS.ProcessEnv; apiPort: number }> {
  const apiPort = await freePort();
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    API_PORT: String(apiPort),
    DISPATCHER_PORT: String(await freePort()),
    SCHEDULER_PORT: String(await freePort()),
    EMBEDDED_POSTGRES_PORT: String(await freePort()),
    SCHEDULER_TICK_SECONDS: '0',
    ...extra,
  };
  return { env, apiPort };
}

/** `npm start` (the CLI's `start`) with this environment, just started. */
export function startingSystem(env: NodeJS.ProcessEnv): RunningSystem {
  // A process group of its own, as a terminal gives the command it runs: Ctrl-C signals the whole group.
  const child = spawn(process.execPath, [cli, 'start'], { env, detached: true });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { process: child, output: () => output };
}

/** `npm start` (the CLI's `start`) with this environment, once it says the system is ready. */
export async function startSystem(env: NodeJS.ProcessEnv): Promise<RunningSystem> {
  const system = startingSystem(env);
  await eventually(
    () => {
      if (system.process.exitCode !== null) throw new Error(`start exited early:\n${system.output()}`);
      expect(system.output()).toContain('is ready');
    },
    { timeoutMs: 120_000, intervalMs: 250 },
  );
  return system;
}

/** Ctrl-C, as a user stops `npm start`: SIGINT to its whole process group, as a terminal sends it; resolves with its exit code. */
export async function stopWithCtrlC(system: RunningSystem): Promise<number | null> {
  if (system.process.exitCode !== null) return system.process.exitCode;
  process.kill(-system.process.pid!, 'SIGINT');
  return new Promise((resolve) => system.process.once('exit', (code) => resolve(code)));
}

/** Another CLI command against the same data directory, while the system runs. */
export function runCli(env: NodeJS.ProcessEnv, ...args: string[]): SpawnSyncReturns<string> {
  return spawnSync(process.execPath, [cli, ...args], { env, encoding: 'utf8' });
}
