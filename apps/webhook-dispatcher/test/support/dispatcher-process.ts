import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { eventually, freePort } from '@storage/testing';
import { secretKeysVariable, TEST_SECRET_KEY } from './secret-keys';

export interface DispatcherProcess {
  baseUrl: string;
  output: () => string;
  stop: () => Promise<void>;
  /** SIGKILL: the process dies mid-work, with no shutdown hook run, as in a crash or an OOM kill. */
  kill: () => Promise<void>;
}

const MAIN = path.join(__dirname, '..', '..', 'dist', 'main.js');

/**
 * The built dispatcher as its own process, trusting the test receiver's CA the standard way (NODE_EXTRA_CA_CERTS),
 * opening endpoint secrets with the test key unless `env` names other keys.
 */
export async function startDispatcher(env: Record<string, string>): Promise<DispatcherProcess> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build the dispatcher first (turbo runs build before test)`);
  const port = await freePort();
  let output = '';
  const child: ChildProcess = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'warn', DISPATCHER_PORT: String(port), WEBHOOK_SECRET_KEYS: secretKeysVariable(TEST_SECRET_KEY), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  await eventually(
    async () => {
      if (child.exitCode !== null) throw new Error(`dispatcher exited: ${output}`);
      expect((await fetch(`${baseUrl}/health/ready`)).status).toBe(200);
    },
    { timeoutMs: 30_000, intervalMs: 200 },
  );
  return {
    baseUrl,
    output: () => output,
    stop: () => signal(child, 'SIGTERM'),
    kill: () => signal(child, 'SIGKILL'),
  };
}

async function signal(child: ChildProcess, name: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill(name);
  await exited;
}
