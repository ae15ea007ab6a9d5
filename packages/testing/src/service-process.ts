import { spawn, type ChildProcess } from 'node:child_process';
import { eventually } from './eventually';

export interface ServiceProcess {
  child: ChildProcess;
  /** Everything it printed so far, stdout and stderr. */
  output: () => string;
  /** Sends the signal and resolves once it exited (at once if it had). */
  signal: (name: NodeJS.Signals) => Promise<void>;
}

/**
 * A built service's entry point as a process of its own, with exactly `env` (and PATH), as it runs in production;
 * resolves once `healthUrl` answers 200. Exiting first fails with what it printed.
 */
export async function startServiceProcess(main: string, env: Record<string, string>, healthUrl: string): Promise<ServiceProcess> {
  let output = '';
  const child = spawn(process.execPath, [main], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const service: ServiceProcess = {
    child,
    output: () => output,
    signal: async (name) => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill(name);
      await exited;
    },
  };
  try {
    await eventually(
      async () => {
        if (child.exitCode !== null) throw new Error(`${main} exited: ${output}`);
        expect((await fetch(healthUrl)).status).toBe(200);
      },
      { timeoutMs: 30_000, intervalMs: 200 },
    );
  } catch (error) {
    await service.signal('SIGKILL');
    throw error;
  }
  return service;
}
