import path from 'node:path';
import { postgresCpuByKind, postgresCpuSeconds, postgresProcesses, postmasterPid, processCpuSeconds, rssMb, type PostgresProcesses } from '@storage/testing';
import type { ScratchSystem } from './scratch-system';

/** CPU seconds so far of the system's parts. */
export interface CpuReading {
  /** The application processes (`ScratchSystem.applicationProcesses`). */
  apps: number;
  /** Every PostgreSQL process, exited backends included. */
  postgres: number;
  /** PostgreSQL's processes, for `postgresByKind`. */
  postgresProcesses: PostgresProcesses;
}

export const totalCpu = (reading: Pick<CpuReading, 'apps' | 'postgres'>): number => reading.apps + reading.postgres;

/** What the system costs so far, from /proc: the CPU and memory of its application processes and of PostgreSQL. */
export class SystemMeter {
  private readonly postmaster: number;

  constructor(private readonly system: ScratchSystem) {
    this.postmaster = postmasterPid(path.join(system.dataDir, 'postgres'));
  }

  cpu(): CpuReading {
    const sum = (pids: number[]) => pids.reduce((total, pid) => total + processCpuSeconds(pid), 0);
    return {
      apps: sum(this.system.applicationProcesses().map(({ pid }) => pid)),
      postgres: postgresCpuSeconds(this.postmaster),
      postgresProcesses: postgresProcesses(this.postmaster),
    };
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
  postgres: number;
  postgresByKind: Map<string, number>;
}

export function cpuBetween(before: CpuReading, after: CpuReading): CpuUsed {
  return {
    apps: after.apps - before.apps,
    postgres: after.postgres - before.postgres,
    postgresByKind: postgresCpuByKind(before.postgresProcesses, after.postgresProcesses),
  };
}
