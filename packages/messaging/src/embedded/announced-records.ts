import type { LogRecord } from './log-reader';

/** The notification payload OutboxPublisher sends for each event: the row, as JSON (`outboxAnnouncements`). */
interface Announcement {
  position: string;
  topic: string;
  key: string | null;
  type: string;
  eventId: string;
  source: string;
  createdAt: string;
  envelope: unknown;
}

/**
 * Rows announced by their commit notification, kept until the log reaches them, so that the usual case, the
 * next position announced, needs no read of the log (one round trip, and a wake-up of the consumer and of a
 * database session, per event).
 *
 * Why that is exact: a notification is delivered only once its transaction has committed, and every position up
 * to the group's last one read (`after`) is settled. So the row at `after + 1`, once announced, is the next row of
 * the log, and nothing can commit before it any more. A row announced further on may still have a gap before it:
 * it waits, and a read of the log decides, as before.
 */
export class AnnouncedRecords {
  private readonly records = new Map<bigint, LogRecord>();
  /** A notification without its row (a writer that notifies once, a payload too large, not understood). */
  private unannounced = true;

  /** A notification's payload: the row it announces, or anything else (then the log must be read). */
  offer(payload: string): void {
    const record = parse(payload);
    if (record) this.records.set(record.position, record);
    else this.unannounced = true;
  }

  /** The announced records that follow `after` without a gap, in log order; those older than `after` are dropped. */
  take(after: bigint): LogRecord[] {
    for (const position of this.records.keys()) if (position <= after) this.records.delete(position);
    const taken: LogRecord[] = [];
    for (let next = after + 1n, record = this.records.get(next); record; record = this.records.get(++next)) {
      taken.push(record);
      this.records.delete(next);
    }
    return taken;
  }

  /** Whether only a read of the log can go on: a row notified without its payload, or announced behind a gap. */
  get mustRead(): boolean {
    return this.unannounced || this.records.size > 0;
  }

  /** A read of the log starts: it covers the rows notified without payload so far (not those notified during it). */
  reading(): void {
    this.unannounced = false;
  }

  /** A new leader reads the log from its offset: what was announced before is read there. */
  clear(): void {
    this.records.clear();
    this.unannounced = true;
  }
}

function parse(payload: string): LogRecord | undefined {
  if (!payload.startsWith('{')) return undefined;
  try {
    const row = JSON.parse(payload) as Announcement;
    return {
      position: BigInt(row.position),
      topic: row.topic,
      key: row.key,
      type: row.type,
      eventId: row.eventId,
      source: row.source,
      envelope: row.envelope,
      createdAt: new Date(row.createdAt),
    };
  } catch {
    return undefined;
  }
}
