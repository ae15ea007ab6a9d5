import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { query, sql, type Queryable } from '@storage/persistence';

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

/** Resident set size of a process, in MB (VmRSS of /proc/<pid>/status). */
export function rssMb(pid: number): number {
  const line =
    readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('VmRSS:')) ?? '';
  return Number(line.replace(/\D+/g, '')) / 1024;
}

/** The live children of a process. */
export function childPids(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** Every process below a process, children first. */
export function descendantPids(pid: number): number[] {
  return childPids(pid).flatMap((child) => [child, ...descendantPids(child)]);
}

/** Alive and not a zombie waiting to be reaped. */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** A process's command line, its arguments joined by spaces; `(exited)` once it is gone. */
export const commandLine = (pid: number): string => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '(exited)';
  }
};

/** A PostgreSQL server's processes at one moment: what `postgresCpuByKind` compares. */
export interface PostgresProcesses {
  /** The postmaster's own CPU seconds. */
  postmaster: number;
  /** CPU seconds of the children it has reaped (exited backends). */
  reaped: number;
  /** Each live child: its kind (`checkpointer`, `walwriter`, `backends` for client connections…) and CPU seconds. */
  children: Map<number, { kind: string; seconds: number }>;
}

/** A backend's title is `postgres: <user> <database> <address>(<port>) <state>`; a background process's, its role. */
const isBackend = (title: string): boolean => /^\S+ \S+ (\S+\(\d+\)|\[local\])/.test(title);

/**
 * `backendNames`: the application each client backend serves, by pid (`application_name` in `pg_stat_activity`);
 * a named backend's kind is `backends of <name>`, the others' `backends`.
 */
export function postgresProcesses(postmasterPid: number, backendNames: ReadonlyMap<number, string> = new Map()): PostgresProcesses {
  const postmaster = stat(postmasterPid);
  const children = new Map<number, { kind: string; seconds: number }>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const child = stat(pid);
    if (child?.ppid !== postmasterPid) continue;
    let title: string;
    try {
      title = commandLine(pid)
        .trim()
        .replace(/^postgres: /, '');
    } catch {
      continue; // exited meanwhile: its time is in `reaped` from now on
    }
    const name = backendNames.get(pid);
    const kind = !isBackend(title) ? title : name ? `backends of ${name}` : 'backends';
    children.set(pid, { kind, seconds: child.own / TICKS_PER_SECOND });
  }
  return { postmaster: (postmaster?.own ?? 0) / TICKS_PER_SECOND, reaped: (postmaster?.reaped ?? 0) / TICKS_PER_SECOND, children };
}

/**
 * CPU seconds each kind of PostgreSQL process used between two readings: where an idle server's time goes. A
 * backend that exited in between moved its time to `reaped`; its time before the first reading is taken off there.
 */
export function postgresCpuByKind(before: PostgresProcesses, after: PostgresProcesses): Map<string, number> {
  const used = new Map<string, number>([['postmaster', after.postmaster - before.postmaster]]);
  const add = (kind: string, seconds: number) => used.set(kind, (used.get(kind) ?? 0) + seconds);
  for (const [pid, child] of after.children) add(child.kind, child.seconds - (before.children.get(pid)?.seconds ?? 0));
  let exited = after.reaped - before.reaped;
  for (const [pid, child] of before.children) if (!after.children.has(pid)) exited -= child.seconds;
  add('exited backends', exited);
  return used;
}

const CLIENT_BACKENDS = sql<{ pid: number; name: string }>(
  "SELECT pid, application_name AS name FROM pg_stat_activity WHERE backend_type = 'client backend' AND application_name <> ''",
);

/** The application each client backend of `db`'s server serves, by pid: what `postgresProcesses` names backends by. */
export async function backendNames(db: Queryable): Promise<Map<number, string>> {
  return new Map((await query(db, CLIENT_BACKENDS)).map(({ pid, name }) => [pid, name]));
}
