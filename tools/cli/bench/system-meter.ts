import path from 'node:path';
import {
  commandLine,
  postgresCpuByKind,
  postgresCpuSeconds,
  postgresProcesses,
  postmasterPid,
  processCpuSeconds,
  rssMb,
  type PostgresProcesses,
} from '@storage/testing';
import { nameOfProcess } from './process-names';
import type { ScratchSystem } from './scratch-system';

/** CPU seconds so far of the system's parts. */
export interface CpuReading {
  /** The application processes: the process of `start` (the three apps) and those it started besides PostgreSQL. */
  apps: number;
  /** Every PostgreSQL process, exited backends included. */
  postgres: number;
  /** PostgreSQL's processes, for `postgresByKind`. */
  postgresProcesses: PostgresProcesses;
}

export const totalCpu = (reading: Pick<CpuReading, 'apps' | 'postgres'>): number => reading.apps + reading.postgres;

/** What the system costs so far, from /proc: the CPU and memory of the processes `start` runs. */
export class SystemMeter {
  private readonly appPids: number[];
  private readonly postmaster: number;

  constructor(system: ScratchSystem) {
    this.appPids = [system.pid, ...system.startedApplicationProcesses()];
    this.postmaster = postmasterPid(path.join(system.dataDir, 'postgres'));
  }

  cpu(): CpuReading {
    const sum = (pids: number[]) => pids.reduce((total, pid) => total + processCpuSeconds(pid), 0);
    return {
      apps: sum(this.appPids),
      postgres: postgresCpuSeconds(this.postmaster),
      postgresProcesses: postgresProcesses(this.postmaster),
    };
  }

  /** Resident set sizes in MB of each application process (named), and their total. */
  rss(): { total: number; byProcess: { process: string; rss: number }[] } {
    const byProcess = this.appPids.map((pid, index) => ({
      process: index === 0 ? "npm start's process (the three apps)" : nameOfProcess(commandLine(pid)),
      rss: rssMb(pid),
    }));
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
