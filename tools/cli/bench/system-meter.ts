import path from 'node:path';
import { Client } from 'pg';
import { connectionUrl, readEmbeddedInfo } from '@storage/persistence';
import {
  backendNames,
  postgresCpuByKind,
  postgresCpuSeconds,
  postgresProcesses,
  postmasterPid,
  processCpuSeconds,
  rssMb,
  type PostgresProcesses,
} from '@storage/testing';
import type { ScratchSystem } from './scratch-system';

/** CPU seconds so far of the system's parts. */
export interface CpuReading {
  /** The application processes (`ScratchSystem.applicationProcesses`). */
  apps: number;
  /** The same, by process name. */
  appsByProcess: Map<string, number>;
  /** Every PostgreSQL process, exited backends included. */
  postgres: number;
  /** PostgreSQL's processes, for `postgresByKind`. */
  postgresProcesses: PostgresProcesses;
}

export const totalCpu = (reading: Pick<CpuReading, 'apps' | 'postgres'>): number => reading.apps + reading.postgres;

/**
 * What the system costs so far, from /proc: the CPU and memory of its application processes and of PostgreSQL, whose
 * client backends are named by the application they serve (`nameBackends`).
 */
export class SystemMeter {
  private readonly postmaster: number;
  /** Every client backend named so far: one that has exited keeps its name, its pid is not reused meanwhile. */
  private readonly backendNames = new Map<number, string>();

  private constructor(
    private readonly system: ScratchSystem,
    private readonly database: Client,
  ) {
    this.postmaster = postmasterPid(path.join(system.dataDir, 'postgres'));
  }

  static async of(system: ScratchSystem): Promise<SystemMeter> {
    const info = await readEmbeddedInfo(system.dataDir);
    if (!info) throw new Error(`no embedded PostgreSQL in ${system.dataDir}`);
    const database = new Client({ connectionString: connectionUrl(info), application_name: 'bench' });
    await database.connect();
    return new SystemMeter(system, database);
  }

  /**
   * Reads which application each client backend serves (pg_stat_activity), for the readings after it. A query:
   * not for an idle window, which it would wake.
   */
  async nameBackends(): Promise<void> {
    for (const [pid, name] of await backendNames(this.database)) this.backendNames.set(pid, name);
  }

  cpu(): CpuReading {
    const appsByProcess = new Map<string, number>();
    for (const { pid, name } of this.system.applicationProcesses()) appsByProcess.set(name, (appsByProcess.get(name) ?? 0) + processCpuSeconds(pid));
    return {
      apps: [...appsByProcess.values()].reduce((total, seconds) => total + seconds, 0),
      appsByProcess,
      postgres: postgresCpuSeconds(this.postmaster),
      postgresProcesses: postgresProcesses(this.postmaster, this.backendNames),
    };
  }

  async close(): Promise<void> {
    await this.database.end();
  }

  /** Resident set sizes in MB of each application process (named), and their total. */
  rss(): { total: number; byProcess: { process: string; rss: number }[] } {
    const byProcess = this.system.applicationProcesses().map(({ pid, name }) => ({ process: name, rss: rssMb(pid) }));
    return { total: byProcess.reduce((total, { rss }) => total + rss, 0), byProcess };
  }
}

/** CPU seconds used between two readings; PostgreSQL's also by kind of process. */
export interface CpuUsed {
  apps: number;
  appsByProcess: Map<string, number>;
  postgres: number;
  postgresByKind: Map<string, number>;
}

export function cpuBetween(before: CpuReading, after: CpuReading): CpuUsed {
  return {
    apps: after.apps - before.apps,
    appsByProcess: new Map([...after.appsByProcess].map(([name, seconds]) => [name, seconds - (before.appsByProcess.get(name) ?? 0)])),
    postgres: after.postgres - before.postgres,
    postgresByKind: postgresCpuByKind(before.postgresProcesses, after.postgresProcesses),
  };
}
