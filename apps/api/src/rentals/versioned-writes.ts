import { ConflictException } from '@nestjs/common';
import type { DataSource } from 'typeorm';
import { topicFor, type EventEnvelope } from '@storage/domain';
import { query, type Sql } from '@storage/persistence';
import { Batcher } from '../common';
import { activeRental, foundRental, type RentalRef } from './rental-lock';

/** A rental row as a versioned read returns it: `ord` is its request's place in the batch (from 1). */
export interface VersionedRow {
  ord: number;
  status: string;
  /** The row's xmin when read. */
  version: string;
}

/** What a write needs to be placed: its rental. */
export interface RentalWrite {
  rentalRecordUuid: string;
}

export interface VersionedStatements<Row extends VersionedRow, Write extends RentalWrite> {
  /** $1, $2, $3: the rentals', facilities' and portfolios' uuids; a row per rental found, with `ord`, `status`, `version`. */
  read: Sql<Row>;
  /** Writes those of its rentals still at the version read (its own transaction); a row `{ uuid }` per rental written. */
  write: Sql<{ uuid: string }>;
  writeParameters: (writes: Write[]) => unknown[];
  /** Taken on a rental that has moved out too (a payment: what is owed outlives the rental); otherwise refused with 409. */
  movedOut?: 'accept';
}

/** Rereads after this many concurrent changes of one rental; more means something is wrong. */
const MAX_ATTEMPTS = 10;
/** Batches of reads, and of writes, in flight at once (each holds a pooled connection for a round trip). */
const BATCHES_IN_FLIGHT = 2;
const MAX_BATCH = 200;

/**
 * The api's hot writes (rent changes, payments) in two round trips instead of a transaction of several: one read
 * of the rental, then one statement, its own transaction, that writes the change and its event only if the
 * rental row is still the version read (xmin). Every writer of a rental (lifecycle actions, payments, the
 * delinquency run's late fees) updates its row, so an unchanged version means what was read is still the
 * rental's; otherwise nothing is written and the change is read and decided again, as under the lock the
 * other writers take.
 *
 * Concurrent calls share those round trips (`Batcher`): reads go together in one statement, and so do writes
 * (one transaction and one commit for all of them, each applied or not on its own version). A write batch
 * waits only for rental rows: the occupancy trigger fires at the end of the statement, once every row is
 * updated, and takes no row it would wait for, so a batch and a letting cannot wait for each other.
 */
export class VersionedWrites<Row extends VersionedRow, Write extends RentalWrite> {
  private readonly reads: Batcher<RentalRef, Row | undefined>;
  private readonly writes: Batcher<Write, boolean>;
  private readonly rentalOf: (row: Row | undefined, ref: RentalRef) => Row;
  /** The last change of each rental under way in this process, which the next one waits for. */
  private readonly turns = new Map<string, Promise<unknown>>();

  constructor(dataSource: DataSource, statements: VersionedStatements<Row, Write>) {
    const found = statements.movedOut === 'accept' ? foundRental : activeRental;
    this.rentalOf = (row, ref) => found(row === undefined ? [] : [row], ref);
    this.reads = new Batcher(
      async (refs) => {
        const rows = await query(dataSource, statements.read, [
          refs.map((ref) => ref.rentalRecordUuid),
          refs.map((ref) => ref.facilityUuid),
          refs.map((ref) => ref.portfolioUuid),
        ]);
        return refs.map((_, index) => rows.find((row) => row.ord === index + 1));
      },
      { concurrency: BATCHES_IN_FLIGHT, maxSize: MAX_BATCH, key: (ref) => `${ref.rentalRecordUuid}/${ref.facilityUuid}/${ref.portfolioUuid}` },
    );
    this.writes = new Batcher(
      async (writes) => {
        const written = await query(dataSource, statements.write, statements.writeParameters(writes));
        const changed = new Set(written.map((row) => row.uuid));
        return writes.map((write) => changed.has(write.rentalRecordUuid));
      },
      // One write of a rental in flight at a time: in one batch a second would match the row the first changes, in
      // two batches they would wait for each other.
      { concurrency: BATCHES_IN_FLIGHT, maxSize: MAX_BATCH, key: (write) => write.rentalRecordUuid },
    );
  }

  /**
   * Reads the rental of `ref` (404; 409 when it has moved out, as `lockActiveRental`, unless `movedOut` accepts it), lets `decide` check the request against it
   * (throwing its refusal) and build the write, and writes it if the rental is still as read; else again. Before
   * each attempt, `answered` may give the answer of the same request made earlier (an idempotent retry): nothing is
   * written then, whatever the rental's state now.
   */
  async apply<Result>(ref: RentalRef, decide: (row: Row) => { write: Write; result: Result }, answered?: () => Promise<Result | undefined>): Promise<Result> {
    // This process's changes of one rental take turns: read together, they would all but one fail their version
    // and retry, the last of N after N attempts. Only writers elsewhere (other replicas, other kinds) race it.
    const key = ref.rentalRecordUuid;
    const mine = (this.turns.get(key) ?? Promise.resolve()).catch(() => undefined).then(() => this.attempt(ref, decide, answered));
    this.turns.set(key, mine);
    try {
      return await mine;
    } finally {
      if (this.turns.get(key) === mine) this.turns.delete(key);
    }
  }

  private async attempt<Result>(
    ref: RentalRef,
    decide: (row: Row) => { write: Write; result: Result },
    answered?: () => Promise<Result | undefined>,
  ): Promise<Result> {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const earlier = await answered?.();
      if (earlier !== undefined) return earlier;
      const read = await this.reads.run(ref);
      const { write, result } = decide(this.rentalOf(read, ref));
      if (await this.writes.run(write)) return result;
    }
    throw new ConflictException(`Rental record ${ref.rentalRecordUuid} kept changing; try again.`);
  }
}

/** The outbox columns of a batch's events as parallel arrays: topic, key, type, event id, envelope (JSON). */
export function outboxColumns(envelopes: readonly EventEnvelope[]): unknown[] {
  return [
    envelopes.map((envelope) => topicFor(envelope.type)),
    envelopes.map((envelope) => envelope.key),
    envelopes.map((envelope) => envelope.type),
    envelopes.map((envelope) => envelope.eventId),
    envelopes.map((envelope) => JSON.stringify(envelope)),
  ];
}
