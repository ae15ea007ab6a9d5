import { existsSync } from 'node:fs';
import path from 'node:path';
import { freePort, startServiceProcess } from '@storage/testing';
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
  const baseUrl = `http://127.0.0.1:${port}`;
  const dispatcher = await startServiceProcess(
    MAIN,
    { NODE_ENV: 'test', LOG_LEVEL: 'warn', DISPATCHER_PORT: String(port), WEBHOOK_SECRET_KEYS: secretKeysVariable(TEST_SECRET_KEY), ...env },
    `${baseUrl}/health/ready`,
  );
  return {
    baseUrl,
    output: dispatcher.output,
    stop: () => dispatcher.signal('SIGTERM'),
    kill: () => dispatcher.signal('SIGKILL'),
  };
}
