/**
 * `node postgres-host.js <data dir>`: the process that runs an embedded PostgreSQL for `startHostedPostgres`, forked
 * in a session of its own. A terminal's Ctrl-C or hang-up signals its whole process group: were the server in it, it
 * would stop at once, under services still using it. Here only the process that forked the host stops it, once its
 * services are down, by closing the IPC channel; the kernel closes the channel too when that process dies, whatever
 * killed it (SIGKILL included), so the server never outlives it.
 */
import { startEmbeddedPostgres } from './embedded-postgres';

/** What the host tells the process that forked it, once, over the IPC channel. */
export type PostgresHostMessage = { ready: true } | { ready: false; error: string };

const send = (message: PostgresHostMessage): void => void process.send?.(message);

async function host(dataDir: string): Promise<void> {
  // Its port: EMBEDDED_POSTGRES_PORT when set (the environment is inherited), else the one the cluster last started on.
  const server = await startEmbeddedPostgres({ dataDir });
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => (stopping ??= server.stop().finally(() => process.exit(0)));
  process.once('disconnect', () => void stop());
  // Not from a terminal (the host has none): a `kill` aimed at it.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => void stop());
  if (!process.connected) return stop(); // the process that forked it went away while the server started
  send({ ready: true });
}

host(process.argv[2] ?? '.data').catch((error: unknown) => {
  send({ ready: false, error: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
