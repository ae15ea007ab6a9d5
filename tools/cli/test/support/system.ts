import { spawn, spawnSync, type ChildProcessWithoutNullStreams, type SpawnSyncReturns } from 'node:child_process';
import path from 'node:path';
import { eventually } from '@storage/testing';

/** The CLI as `npm run cli --` runs it. */
export const cli = path.resolve(__dirname, '../../dist/main.js');

export interface RunningSystem {
  process: ChildProcessWithoutNullStreams;
  output: () => string;
}

/** `npm start` (the CLI's `start`) with this environment, once it says the system is ready. */
export async function startSystem(env: NodeJS.ProcessEnv): Promise<RunningSystem> {
  // A process group of its own, as a terminal gives the command it runs: Ctrl-C signals the whole group.
  const child = spawn(process.execPath, [cli, 'start'], { env, detached: true });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await eventually(
    () => {
      if (child.exitCode !== null) throw new Error(`start exited early:\n${output}`);
      expect(output).toContain('is ready');
    },
    { timeoutMs: 120_000, intervalMs: 250 },
  );
  return { process: child, output: () => output };
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
