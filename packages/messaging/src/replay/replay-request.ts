/** A validated `replay` command. */
export interface ReplayCommand {
  group: string;
  from: Date;
  to: Date | undefined;
  redeliver: boolean;
}

/** Bad arguments: the CLI prints the message and the usage, and exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The group is consuming: moving its position now would be overwritten by its next commit. */
export class GroupRunning extends Error {
  override readonly name = 'GroupRunning';
}

/** The replay would start before events outbox retention has already deleted. */
export class EventsPruned extends Error {
  override readonly name = 'EventsPruned';
}

export const REPLAY_USAGE = 'usage: replay --group <group> --from <ISO time> [--to <ISO time>] [--redeliver]';

export function parseReplayArgs(args: readonly string[]): ReplayCommand {
  const values = new Map<string, string>();
  let redeliver = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--redeliver') {
      redeliver = true;
      continue;
    }
    if (arg !== '--group' && arg !== '--from' && arg !== '--to') throw new UsageError(`unknown argument "${arg}"`);
    const value = args[++i];
    if (value === undefined || value.startsWith('--')) throw new UsageError(`${arg} needs a value`);
    values.set(arg, value);
  }
  const group = values.get('--group');
  if (!group) throw new UsageError('--group is required');
  const from = isoTime('--from', values.get('--from'));
  if (!from) throw new UsageError('--from is required');
  const to = isoTime('--to', values.get('--to'));
  if (to && to < from) throw new UsageError('--to must not be before --from');
  return { group, from, to, redeliver };
}

function isoTime(name: string, value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const time = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(time.getTime())) throw new UsageError(`${name} must be an ISO 8601 time, got "${value}"`);
  return time;
}
