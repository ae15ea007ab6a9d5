import { readFileSync } from 'node:fs';
import type { DataSource } from 'typeorm';
import { query, sql } from '@storage/persistence';

/** CPU seconds (user + system) a process of this machine has used so far, from /proc; throws when it is not here. */
export function processCpuSeconds(pid: number): number {
  const ticksPerSecond = 100;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
}

/**
 * CPU seconds so far of the database's sessions (server processes) of the data source's database, by process id:
 * an empty map when the server is not on this machine.
 */
export async function sessionCpuSeconds(dataSource: DataSource): Promise<Map<number, number>> {
  const sessions = await query(dataSource, sql<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = current_database()'));
  const seconds = new Map<number, number>();
  for (const { pid } of sessions) {
    try {
      seconds.set(pid, processCpuSeconds(pid));
    } catch {
      return new Map();
    }
  }
  return seconds;
}
