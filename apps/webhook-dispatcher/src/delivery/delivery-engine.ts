import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { signedHeaders, StoredSecretUnreadable, type SecretKeyring } from '@storage/webhooks';
import type { Clock, Random } from '../clock';
import type { DeliveryResponse, WebhookSender } from './delivery-client';
import type { AttemptRecord, ClaimedMessage, MessageStore } from './message-store';
import { DISABLE_AFTER_FAILING_MS, parseRetryAfter, retryDelay } from './retry-policy';
import { SigningKeys } from './signing-keys';

export interface DeliveryEngineOptions {
  /** Deliveries in flight at once. */
  concurrency: number;
  /** How long a claimed message stays invisible to other workers; longer than the delivery timeout. */
  leaseMs: number;
  /**
   * Safety poll: how often to look for messages this replica was not told of (created or left leased by
   * another replica) and to learn when the next one is due. Its own retries wake it at their due time.
   */
  pollMs: number;
  /**
   * How long finished attempts wait to be recorded together. At 100 deliveries/s, 100 ms is a statement per ten; the
   * receiver has the message already, and a crash within the wait resends it under the same hook-id. 500 ms (a
   * statement per fifty) saved about 0.4 CPU s per 10k deliveries but left the idle dispatcher at 0.26 - 0.30 CPU s
   * a minute after a load instead of 0.02 (README, "Idle after a load").
   */
  recordWaitMs: number;
  /** This replica's name for listen sessions (`ListenHub`); a fresh one when not given. */
  replica?: string;
}

export interface Reservation {
  count: number;
  leaseUntil: Date;
  /** Attempts finished here but not yet recorded: their leases no longer hold their endpoints' slots. */
  settled: string[];
}

/** This replica's deliveries per endpoint (sending or waiting for a slot). */
interface InFlightCounts {
  endpointIds: string[];
  counts: number[];
}

/** One endpoint's deliveries on this replica: those sending, and those claimed while it was at its limit. */
interface EndpointLane {
  sending: number;
  waiting: ClaimedMessage[];
  maxInFlight: number;
  /** A claim took as many as its room allowed, so may have left due messages of it: its next room wakes the pump. */
  limited: boolean;
}

export const DEFAULT_ENGINE_OPTIONS: DeliveryEngineOptions = { concurrency: 256, leaseMs: 60_000, pollMs: 30_000, recordWaitMs: 100 };

/**
 * Claims due messages, signs and sends them, and records every attempt. No endpoint has more than its `maxInFlight`
 * deliveries in flight at once across replicas (the claims count its leases, less the attempts finished here and not
 * yet recorded), so a receiver that never answers holds that many slots, not all; and no two
 * messages of one rental to one endpoint are in flight at once (the claims' `NOT_HELD`). `runOnce` delivers what is
 * due and returns (tests, tools); `start` keeps a pump running, woken by new messages, by a timer at the next due
 * retry and by a slow safety poll, so an idle engine does not query the database.
 */
export class DeliveryEngine {
  private readonly logger = new Logger(DeliveryEngine.name);
  private inFlight = 0;
  private readonly lanes = new Map<string, EndpointLane>();
  private running = false;
  private pumping = false;
  private pumpAgain = false;
  private saturated = false;
  private pollTimer: NodeJS.Timeout | undefined;
  private dueTimer: { at: number; timer: NodeJS.Timeout } | undefined;
  private results: AttemptRecord[] = [];
  /** The messages of `results` and of the batch being recorded: finished, their leases not yet ended in the database. */
  private readonly unrecorded = new Set<string>();
  private flushing: Promise<void> | undefined;
  private skipWait: (() => void) | undefined;
  private readonly signingKeys: SigningKeys;
  /** This replica, as the listen sessions whose streams it holds name it: only it claims their messages. */
  readonly replica: string;

  constructor(
    private readonly store: MessageStore,
    keyring: SecretKeyring,
    private readonly client: WebhookSender,
    private readonly clock: Clock,
    private readonly random: Random,
    private readonly options: DeliveryEngineOptions = DEFAULT_ENGINE_OPTIONS,
  ) {
    this.signingKeys = new SigningKeys(keyring);
    this.replica = options.replica ?? randomUUID();
  }

  /** Delivers every message due now, waits for the attempts to be recorded, and returns how many were tried. */
  async runOnce(): Promise<number> {
    let total = 0;
    for (;;) {
      const claimed = await this.claim(this.options.concurrency);
      if (claimed.length === 0) return total;
      const records = await Promise.all(claimed.map((message) => this.attempt(message)));
      await this.store.record(records, this.clock.now(), this.failingCutoff());
      total += claimed.length;
    }
  }

  start(): void {
    this.running = true;
    this.poll();
  }

  /**
   * Room for messages a caller claims for this engine as it creates them (fan-out), saving the claim's round
   * trip: up to `limit` attempts held until `deliverReserved`, and the lease to create them under.
   */
  reserve(limit: number): Reservation {
    const count = this.running ? Math.max(0, Math.min(limit, this.options.concurrency - this.inFlight)) : 0;
    this.inFlight += count;
    return { count, leaseUntil: new Date(this.clock.now().getTime() + this.options.leaseMs), settled: [...this.unrecorded] };
  }

  /** Sends the messages claimed under a reservation and gives back the room they did not use. */
  deliverReserved(reservation: Reservation, messages: readonly ClaimedMessage[]): void {
    this.inFlight -= reservation.count;
    for (const message of messages) this.launch(message);
    // Room given back that a wake found taken: look for due messages now.
    if (this.saturated && messages.length < reservation.count) this.wake();
  }

  /** New messages are waiting (fan-out, resend): look now rather than at the next poll. */
  wake(): void {
    if (!this.running) return;
    if (this.pumping) {
      this.pumpAgain = true;
      return;
    }
    void this.pump();
  }

  /** Stops claiming, then waits for the attempts under way to finish and be recorded. */
  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.pollTimer);
    clearTimeout(this.dueTimer?.timer);
    while (this.inFlight > 0 || this.pumping || this.flushing || this.results.length > 0) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      do {
        this.pumpAgain = false;
        // No room now (attempts and fan-out reservations): the next attempt to finish wakes the pump again.
        if (this.inFlight >= this.options.concurrency) this.saturated = true;
        while (this.running && this.inFlight < this.options.concurrency) {
          const room = this.options.concurrency - this.inFlight;
          const before = this.inFlightCounts();
          const claimed = await this.claim(room);
          this.saturated = claimed.length === room;
          for (const message of claimed) this.launch(message);
          if (this.markLimited(before, claimed)) this.pumpAgain = true;
          // Fewer than asked for: nothing else is due now, no need to ask again.
          if (!this.saturated) break;
        }
      } while (this.pumpAgain && this.running);
    } catch (error) {
      this.logger.error(`claiming messages failed, retrying at the next poll: ${String(error)}`);
    } finally {
      this.pumping = false;
    }
  }

  /** Counts the message in flight and sends it, or, its endpoint at its limit, once one of the endpoint's finishes. */
  private launch(message: ClaimedMessage): void {
    this.inFlight += 1;
    const lane = this.laneOf(message.endpointId);
    lane.maxInFlight = message.maxInFlight;
    if (lane.sending >= lane.maxInFlight) lane.waiting.push(message);
    else this.send(message, lane);
  }

  private send(message: ClaimedMessage, lane: EndpointLane): void {
    lane.sending += 1;
    void this.attempt(message).then((record) => {
      this.inFlight -= 1;
      lane.sending -= 1;
      const next = lane.waiting.shift();
      if (next) this.send(next, lane);
      this.results.push(record);
      if (record.nextAttemptAt) this.wakeAt(record.nextAttemptAt.getTime());
      // Room again: for any endpoint's messages (saturated), or for this endpoint's that a claim left for lack of it.
      const roomForLimited = !next && lane.limited;
      if (roomForLimited) lane.limited = false;
      if (record.outcome !== 'succeeded') {
        // A failure keeps its slot (its lease) until its record has started the endpoint's failure run, which leaves
        // the endpoint one probe (`IN_FLIGHT_LIMIT`): recorded at once, and the pump woken by that record.
        this.flush(true);
        return;
      }
      this.unrecorded.add(message.id);
      this.flush(message.holdsOthers);
      if (this.saturated || roomForLimited) this.wake();
    });
  }

  private inFlightCounts(): InFlightCounts {
    const busy = [...this.lanes].filter(([, lane]) => lane.sending + lane.waiting.length > 0);
    return { endpointIds: busy.map(([id]) => id), counts: busy.map(([, lane]) => lane.sending + lane.waiting.length) };
  }

  private laneOf(endpointId: string): EndpointLane {
    const lane = this.lanes.get(endpointId) ?? { sending: 0, waiting: [], maxInFlight: Number.MAX_SAFE_INTEGER, limited: false };
    this.lanes.set(endpointId, lane);
    return lane;
  }

  /**
   * Marks the endpoints whose share of a claim was cut by their room (`before`, this replica's counts as the claim
   * saw them): their next finished delivery wakes the pump. Answers whether one of them has room again already
   * (its deliveries finished while the claim ran), so the pump claims again at once.
   */
  private markLimited(before: InFlightCounts, claimed: readonly ClaimedMessage[]): boolean {
    const taken = new Map<string, number>();
    for (const message of claimed) taken.set(message.endpointId, (taken.get(message.endpointId) ?? 0) + 1);
    const had = new Map(before.endpointIds.map((id, n) => [id, before.counts[n]]));
    let roomAgain = false;
    for (const id of new Set([...had.keys(), ...taken.keys()])) {
      const lane = this.laneOf(id);
      if ((taken.get(id) ?? 0) < lane.maxInFlight - (had.get(id) ?? 0)) continue;
      lane.limited = true;
      if (lane.sending + lane.waiting.length < lane.maxInFlight) roomAgain = true;
    }
    return roomAgain;
  }

  /** The safety poll: claims what is due and sets the timer for the next message due, whoever created it. */
  private poll(): void {
    if (!this.running) return;
    this.wake();
    this.armNextDue();
    this.pollTimer = setTimeout(() => this.poll(), this.options.pollMs);
  }

  /** Sets the timer for the next message due after now (a retry, another replica's lease), whoever created it. */
  private armNextDue(): void {
    this.store.nextDue(this.clock.now()).then(
      (at) => at && this.wakeAt(at.getTime()),
      (error: unknown) => this.logger.error(`looking for the next due message failed, retrying at the next poll: ${String(error)}`),
    );
  }

  /** Wakes the pump when a message becomes due; only the earliest such time needs a timer, the next is armed as it fires. */
  private wakeAt(at: number): void {
    if (!this.running || (this.dueTimer && this.dueTimer.at <= at)) return;
    clearTimeout(this.dueTimer?.timer);
    const timer = setTimeout(
      () => {
        this.dueTimer = undefined;
        this.wake();
        this.armNextDue();
      },
      Math.max(0, at - this.clock.now().getTime()),
    );
    this.dueTimer = { at, timer };
  }

  /**
   * Group commit: one statement records whatever finished while the previous one ran, or in the short wait
   * before the first one (a quiet stream would otherwise write once per delivery). The receiver has its
   * message already; a crash before recording resends it under the same hook-id. A failed attempt, and a message that
   * holds a later one of its rental, are recorded without the wait.
   */
  private flush(urgent: boolean): void {
    if (urgent) this.skipWait?.();
    if (this.flushing) return;
    this.flushing = (async () => {
      if (!urgent) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.options.recordWaitMs);
          this.skipWait = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.skipWait = undefined;
      }
      while (this.results.length > 0) {
        const batch = this.results;
        this.results = [];
        try {
          await this.record(batch);
        } catch (error) {
          // One attempt that cannot be recorded (its message gone with its endpoint, deleted meanwhile) must not lose
          // the others' records, which would leave them claimed until their lease ends and send them again: each alone.
          if (batch.length > 1) await this.recordEach(batch);
          else this.logger.error(`recording an attempt failed: ${String(error)}`);
        }
        // Recorded, or left to its lease (which then holds its slot until it ends).
        for (const { message } of batch) this.unrecorded.delete(message.id);
      }
    })().finally(() => {
      this.flushing = undefined;
    });
  }

  /**
   * Records attempts and wakes the pump when that lets it claim more: an endpoint's failure run ended, a later message of
   * a rental that one held, or a failed attempt's slot (its endpoint now limited to a probe while its run lasts).
   */
  private async record(batch: readonly AttemptRecord[]): Promise<void> {
    const released = await this.store.record(batch, this.clock.now(), this.failingCutoff());
    if (released || batch.some((record) => record.outcome !== 'succeeded')) this.wake();
  }

  /** The attempts of a group that failed, one statement each; one that fails again is logged and left to its lease. */
  private async recordEach(batch: readonly AttemptRecord[]): Promise<void> {
    for (const record of batch) {
      try {
        await this.record([record]);
      } catch (error) {
        // The message stays claimed until its lease ends, then is tried again: late, never lost.
        this.logger.error(`recording the attempt of message ${record.message.id} failed: ${String(error)}`);
      }
    }
  }

  private claim(limit: number): Promise<ClaimedMessage[]> {
    const now = this.clock.now();
    return this.store.claimDue(now, new Date(now.getTime() + this.options.leaseMs), limit, [...this.unrecorded], this.replica);
  }

  private async attempt(message: ClaimedMessage): Promise<AttemptRecord> {
    const attemptedAt = this.clock.now();
    let response: DeliveryResponse;
    try {
      const headers = signedHeaders(this.liveKeys(message, attemptedAt), message.id, Math.floor(attemptedAt.getTime() / 1_000), message.body);
      response = await this.client.send({ url: message.url, headers, body: message.body, eventType: message.eventType });
    } catch (error) {
      // A bad stored secret must cost one recorded attempt, not the worker; operators need to hear of it.
      if (error instanceof StoredSecretUnreadable) this.logger.error(`message ${message.id} not sent: ${error.message}`);
      response = { kind: 'error', error: `not sent: ${String(error)}`, timedOut: false, latencyMs: 0 };
    }
    return { message, attemptedAt, response, ...this.nextStep(message, attemptedAt, response) };
  }

  /**
   * After a rotation the old secret signs beside the new one for 24 hours, so receivers can switch over.
   * Secrets are opened here (once per stored value, `SigningKeys`).
   */
  private liveKeys(message: ClaimedMessage, at: Date): Buffer[] {
    const open = (stored: string) => this.signingKeys.of(stored, message.endpointId);
    const keys = [open(message.storedSecret)];
    if (message.storedPreviousSecret && message.previousSecretExpiresAt && message.previousSecretExpiresAt > at) keys.push(open(message.storedPreviousSecret));
    return keys;
  }

  private nextStep(message: ClaimedMessage, attemptedAt: Date, response: DeliveryResponse): Pick<AttemptRecord, 'outcome' | 'nextAttemptAt'> {
    if (response.kind === 'response' && response.statusCode >= 200 && response.statusCode < 300) return { outcome: 'succeeded', nextAttemptAt: null };
    if (response.kind === 'response' && response.statusCode === 410) return { outcome: 'gone', nextAttemptAt: null };
    const delay = retryDelay(
      {
        tries: message.attempts + 1,
        timedOut: response.kind === 'error' && response.timedOut,
        statusCode: response.kind === 'response' ? response.statusCode : null,
        retryAfterMs: response.kind === 'response' ? parseRetryAfter(response.retryAfter, attemptedAt) : null,
      },
      this.random.next(),
    );
    if (delay === null) return { outcome: 'failed', nextAttemptAt: null };
    return { outcome: 'retry', nextAttemptAt: new Date(attemptedAt.getTime() + delay) };
  }

  private failingCutoff(): Date {
    return new Date(this.clock.now().getTime() - DISABLE_AFTER_FAILING_MS);
  }
}
