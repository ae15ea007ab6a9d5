import type { LogRecord } from './log-reader';

/**
 * Handles log records of different keys concurrently and records of one key in log order: a record goes to
 * the lane of its key's hash, and a lane handles one record at a time. `doneThrough` is the end of the
 * contiguous prefix of finished records, the only position safe to save as the group's offset (a crash
 * redelivers what lies after it: at least once). After a failed record every lane stops taking records, so
 * nothing of that key runs before it is tried again.
 */
export class Lanes {
  private readonly queues: LogRecord[][];
  private readonly busy: boolean[];
  /** Positions taken in log order and not yet in the finished prefix. */
  private readonly open: bigint[] = [];
  private readonly finished = new Set<bigint>();
  private waiters: (() => void)[] = [];
  private failed: { error: unknown } | undefined;
  private through: bigint;

  constructor(
    count: number,
    private readonly handle: (record: LogRecord) => Promise<void>,
    start: bigint,
  ) {
    this.queues = Array.from({ length: count }, () => []);
    this.busy = new Array<boolean>(count).fill(false);
    this.through = start;
  }

  get doneThrough(): bigint {
    return this.through;
  }

  /** Records taken and not yet in the finished prefix. */
  get backlog(): number {
    return this.open.length;
  }

  /** The error of a failed record, once one failed. */
  get failure(): { error: unknown } | undefined {
    return this.failed;
  }

  /** Takes the next record of the log; `run: false` passes it (another topic, skipped by a replay). */
  add(record: LogRecord, run: boolean): void {
    this.open.push(record.position);
    if (!run) return this.finish(record.position);
    const lane = laneOf(record.key, this.queues.length);
    this.queues[lane].push(record);
    if (!this.busy[lane]) void this.drain(lane);
  }

  /** Resolves when a record finishes or fails. */
  changed(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Resolves when no lane is handling a record (after a failure, queued records are left). */
  async settled(): Promise<void> {
    while (this.busy.some(Boolean)) await this.changed();
  }

  private async drain(lane: number): Promise<void> {
    this.busy[lane] = true;
    const queue = this.queues[lane];
    try {
      while (queue.length > 0 && !this.failed) {
        await this.handle(queue[0]);
        this.finish(queue.shift()!.position);
      }
    } catch (error) {
      this.failed ??= { error };
    } finally {
      this.busy[lane] = false;
      this.notify();
    }
  }

  private finish(position: bigint): void {
    this.finished.add(position);
    while (this.open.length > 0 && this.finished.delete(this.open[0])) this.through = this.open.shift()!;
    this.notify();
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }
}

/** FNV-1a of the key; records without a key share one lane, so they keep their log order too. */
export function laneOf(key: string | null, count: number): number {
  const text = key ?? '';
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % count;
}
