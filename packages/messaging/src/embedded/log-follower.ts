import type { Notification, Pool, PoolClient } from 'pg';
import { query, sql } from '@storage/persistence';
import { advisoryUnlock, tryAdvisoryLock } from './advisory-lock';

/** The channel that wakes every follower: for writers that notify once for events of any topic. */
export const OUTBOX_CHANNEL = 'outbox';

/**
 * The channel OutboxPublisher notifies for an event of `topic`: only followers of that topic wake, so a group
 * is not woken (one read, one round trip, for nothing) by every event of topics it does not consume.
 */
export const topicChannel = (topic: string): string => `${OUTBOX_CHANNEL}:${topic}`;

/** After a step: more is waiting, nothing is, or a gap holds rows back until older transactions end. */
export type StepResult = 'busy' | 'idle' | 'gap';

export interface LogFollowerOptions {
  pool: Pool;
  /** Only the holder of this advisory lock works; other replicas wait as standbys. */
  lockName: string;
  /** Topics whose notifications wake this follower (besides OUTBOX_CHANNEL); others' rows wait for a later read. */
  topics: readonly string[];
  /**
   * How often a standby retries the lock, and the first safety poll for a lost notification; while nothing
   * happens the safety poll backs off to IDLE_BACKOFF times this.
   */
  pollIntervalMs: number;
  /** Channels besides the topics' that wake this follower (a group's replay requests). */
  channels?: readonly string[];
  /** Called with the payload and channel of every notification, before the step it wakes. */
  onNotification?: (payload: string, channel: string) => void;
  /** Called when this process becomes the leader, before its first step. */
  lead: () => Promise<void>;
  step: () => Promise<StepResult>;
  /** Called when leadership ends (stop or failure), before the lock is released, to finish work under way. Must not throw. */
  resign?: () => Promise<void>;
  onError: (error: unknown) => void;
}

/** A gap is usually a transaction about to commit: look again soon, not at the next poll. */
const GAP_RECHECK_MS = 5;
const MAX_BACKOFF_MS = 5_000;
/** Notifications are the wake-up; an idle log is polled ever less often, down to one poll per 30 intervals. */
const IDLE_BACKOFF = 30;

const UNLISTEN_ALL = sql('UNLISTEN *');

/**
 * Runs `step` while this process holds the lock, woken by LISTEN/NOTIFY with a poll as a safety net.
 * A failed step (database away) is reported and retried after the poll interval; nothing is skipped.
 */
export class LogFollower {
  private stopped = false;
  private woken = false;
  private wake: (() => void) | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly options: LogFollowerOptions) {}

  start(): void {
    this.running = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.signal();
    await this.running;
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      try {
        await this.leadWhileLocked(() => (failures = 0));
      } catch (error) {
        failures++;
        this.options.onError(error);
        // Backs off while a dependency (database, broker) is away, without giving up.
        await this.sleep(Math.min(MAX_BACKOFF_MS, this.options.pollIntervalMs * 2 ** (failures - 1)));
      }
    }
  }

  private async leadWhileLocked(onProgress: () => void): Promise<void> {
    const client = await this.options.pool.connect();
    // The lock lives in this session: if the connection breaks, leadership is gone and stepping must stop.
    let broken: Error | undefined;
    const onError = (error: Error): void => {
      broken = error;
      this.signal();
    };
    const onNotification = (message: Notification): void => {
      this.options.onNotification?.(message.payload ?? '', message.channel);
      this.signal();
    };
    client.on('error', onError);
    // Set while this session holds the lock (and listens): a leadership that ends otherwise than cleanly ends the session.
    let leading = false;
    try {
      while (!this.stopped && !(await tryAdvisoryLock(client, this.options.lockName))) await this.sleep(this.options.pollIntervalMs);
      if (this.stopped) return;
      leading = true;
      client.on('notification', onNotification);
      const channels = [OUTBOX_CHANNEL, ...this.options.topics.map(topicChannel), ...(this.options.channels ?? [])];
      await query(client, sql(channels.map((channel) => `LISTEN ${client.escapeIdentifier(channel)};`).join(' ')));
      await this.options.lead();
      try {
        await this.stepWhileLeading(() => broken, onProgress);
      } finally {
        await this.options.resign?.();
      }
      await query(client, UNLISTEN_ALL);
      await advisoryUnlock(client, this.options.lockName);
      leading = false;
    } finally {
      client.off('notification', onNotification);
      client.off('error', onError);
      // A failed lead or step leaves the session holding the lock: back in the pool, it would keep every replica from
      // leading (this one too, handed another connection) for as long as it lives. Ending it releases the lock.
      releaseClient(client, broken ?? (leading ? new Error('leadership ended by a failure') : undefined));
    }
  }

  private async stepWhileLeading(broken: () => Error | undefined, onProgress: () => void): Promise<void> {
    let idlePoll = this.options.pollIntervalMs;
    while (!this.stopped) {
      const failure = broken();
      if (failure) throw failure;
      const result = await this.options.step();
      onProgress();
      if (result !== 'idle') idlePoll = this.options.pollIntervalMs;
      switch (result) {
        case 'busy':
          continue;
        case 'gap':
          await this.sleep(GAP_RECHECK_MS);
          break;
        case 'idle':
          // Records or a gap reset the backoff; a notification ends the sleep early.
          await this.sleep(idlePoll);
          idlePoll = Math.min(idlePoll * 2, this.options.pollIntervalMs * IDLE_BACKOFF);
          break;
      }
    }
  }

  private signal(): void {
    this.woken = true;
    this.wake?.();
  }

  /** Sleeps until the time is up or a notification arrives; one that arrived during a step counts. */
  private sleep(ms: number): Promise<void> {
    if (this.woken || this.stopped) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wake = undefined;
        this.woken = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }
}

function releaseClient(client: PoolClient, broken: Error | undefined): void {
  // A broken session (or one still holding the lock) is destroyed rather than returned to the pool.
  client.release(broken);
}
