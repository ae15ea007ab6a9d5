import { readdirSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

interface Stat {
  ppid: number;
  /** utime + stime of the process itself. */
  own: number;
  /** cutime + cstime: children it has reaped (exited backends, for the postmaster). */
  reaped: number;
}

function stat(pid: number): Stat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name may hold spaces; the fields after it are fixed (proc(5)).
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { ppid: Number(fields[1]), own: Number(fields[11]) + Number(fields[12]), reaped: Number(fields[13]) + Number(fields[14]) };
}

/** CPU seconds used so far by one process (not its children). */
export function processCpuSeconds(pid: number): number {
  return (stat(pid)?.own ?? 0) / TICKS_PER_SECOND;
}

/**
 * CPU seconds used so far by a PostgreSQL server: the postmaster, its live backends and background workers,
 * and the backends that have exited (reaped by the postmaster, so counted in its children's time).
 */
export function postgresCpuSeconds(postmasterPid: number): number {
  const postmaster = stat(postmasterPid);
  if (!postmaster) return NaN;
  let ticks = postmaster.own + postmaster.reaped;
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const child = stat(pid);
    if (child?.ppid === postmasterPid) ticks += child.own;
  }
  return ticks / TICKS_PER_SECOND;
}

/** The postmaster's pid, first line of postmaster.pid in the data directory. */
export function postmasterPid(dataDir: string): number {
  return Number(readFileSync(`${dataDir}/postmaster.pid`, 'utf8').split('\n')[0]);
}
