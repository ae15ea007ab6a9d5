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
import { nameOfNodeProcess } from './process-names';
import type { ScratchSystem } from './scratch-system';

/** CPU seconds so far of the system's parts. */
export interface CpuReading {
  /** The process of `start` (the three apps) and any app process it started. */
  apps: number;
  /** The Node process hosting PostgreSQL. */
  host: number;
  /** Every PostgreSQL process, exited backends included. */
  postgres: number;
  /** PostgreSQL's processes, for `postgresByKind`. */
  postgresProcesses: PostgresProcesses;
}

export const totalCpu = (reading: Pick<CpuReading, 'apps' | 'host' | 'postgres'>): number => reading.apps + reading.host + reading.postgres;

/** What the system costs so far, from /proc: the CPU and memory of the processes `start` runs. */
export class SystemMeter {
  private readonly appPids: number[];
  private readonly hostPids: number[];
  private readonly postmaster: number;

  constructor(system: ScratchSystem) {
    const started = system.startedNodeProcesses();
    const isHost = (pid: number) => nameOfNodeProcess(commandLine(pid)) === 'PostgreSQL host';
    this.appPids = [system.pid, ...started.filter((pid) => !isHost(pid))];
    this.hostPids = started.filter(isHost);
    this.postmaster = postmasterPid(path.join(system.dataDir, 'postgres'));
  }

  cpu(): CpuReading {
    const sum = (pids: number[]) => pids.reduce((total, pid) => total + processCpuSeconds(pid), 0);
    return {
      apps: sum(this.appPids),
      host: sum(this.hostPids),
      postgres: postgresCpuSeconds(this.postmaster),
      postgresProcesses: postgresProcesses(this.postmaster),
    };
  }

  /** Resident set sizes in MB: the apps' processes together, and the PostgreSQL host. */
  rss(): { apps: number; host: number } {
    const sum = (pids: number[]) => pids.reduce((total, pid) => total + rssMb(pid), 0);
    return { apps: sum(this.appPids), host: sum(this.hostPids) };
  }
}

/** CPU seconds used between two readings; PostgreSQL's also by kind of process. */
export interface CpuUsed {
  apps: number;
  host: number;
  postgres: number;
  postgresByKind: Map<string, number>;
}

export function cpuBetween(before: CpuReading, after: CpuReading): CpuUsed {
  return {
    apps: after.apps - before.apps,
    host: after.host - before.host,
    postgres: after.postgres - before.postgres,
    postgresByKind: postgresCpuByKind(before.postgresProcesses, after.postgresProcesses),
  };
}
