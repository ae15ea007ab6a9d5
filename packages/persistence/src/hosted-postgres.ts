import { fork } from 'node:child_process';
import path from 'node:path';
import { connectionUrl, readEmbeddedInfo, type RunningEmbeddedPostgres } from './embedded-postgres';
import type { PostgresHostMessage } from './postgres-host';

/** The host's built entry: `dist/` from the built package and from its sources (run by the tests) alike. */
const POSTGRES_HOST = path.resolve(__dirname, '..', 'dist', 'postgres-host.js');

/**
 * Starts the embedded PostgreSQL of `dataDir` (as `startEmbeddedPostgres` does) in a host process of its own
 * session (`postgres-host`): out of reach of the terminal's Ctrl-C, which would otherwise stop it under the services
 * still using it; stopped by `stop()`, or when this process dies.
 */
export function startHostedPostgres(options: { dataDir: string }): Promise<RunningEmbeddedPostgres> {
  const host = fork(POSTGRES_HOST, [path.resolve(options.dataDir)], { detached: true, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => host.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    host.once('message', (message: PostgresHostMessage) => {
      if (!message.ready) return reject(new Error(message.error));
      void readEmbeddedInfo(options.dataDir).then((info) => {
        if (!info) return reject(new Error(`embedded PostgreSQL started without its connection details in ${options.dataDir}`));
        resolve({
          url: (database = 'storage') => connectionUrl(info, database),
          stop: async () => {
            if (host.connected) host.disconnect();
            await exited;
          },
        });
      }, reject);
    });
    void exited.then(() => reject(new Error(`embedded PostgreSQL did not start (cluster ${path.resolve(options.dataDir, 'postgres')})`)));
  });
}
