import type { DataSource } from 'typeorm';
import { query, type Queryable, type Sql } from '@storage/persistence';
import { lockRental, type RentalVersion } from '@storage/rentals';
import { Batcher } from '../common';
import { activeRental, foundRental, type RentalPath } from './rental-lock';

/** A rental row as a versioned read returns it: `ord` is its request's place in the batch (from 1). */
export interface VersionedRow {
  ord: number;
  status: string;
  version: RentalVersion;
}

/** What a write needs to be placed: its rental. */
export interface RentalWrite {
  rentalRecordUuid: string;
}

/** A versioned read's values: the rentals', facilities' and portfolios' uuids, an element per rental. */
export type VersionedReadValues = [rentalRecordUuids: string[], facilityUuids: string[], portfolioUuids: string[]];

export interface VersionedStatements<Row extends VersionedRow, Write extends RentalWrite> {
  /** $1, $2, $3: the rentals', facilities' and portfolios' uuids; a row per rental found, with `ord`, `status`, `version`. */
  read: Sql<Row, VersionedReadValues>;
  /** The owner's write of those of its rentals still at the version read, in `db`: answers the uuids of the rentals written. */
  write: (db: Queryable, writes: readonly Write[]) => Promise<string[]>;
  /** Taken on a rental that has moved out too (a payment: what is owed outlives the rental); otherwise refused with 409. */
  movedOut?: 'accept';
}

/** Batches of reads, and of writes, in flight at once (each holds a pooled connection for a round trip). */
const BATCHES_IN_FLIGHT = 2;
const MAX_BATCH = 200;

/**
 * The api's hot writes (rent changes, payments) in two round trips instead of a transaction of several: one read
 * of the rental, then one statement, its own transaction, that writes the change and its event only if the
 * rental row is still the version read (`RentalVersion` of @storage/rentals). Every writer of a rental (lifecycle
 * actions, payments, the delinquency run's late fees) updates its row, so an unchanged version means what was read
 * is still the rental's.
 *
 * A write that finds the rental changed since its read does not race again: it queues on the rental's row lock,
 * then reads, decides and writes in that transaction, where no other writer can change the row between its read
 * and its write. So a write is tried at most twice, whatever the machine's speed and the number of writers.
 *
 * Concurrent calls share those round trips (`Batcher`): reads go together in one statement, and so do writes
 * (one transaction and one commit for all of them, each applied or not on its own version). A write batch
 * waits only for rental rows: the occupancy trigger fires at the end of the statement, once every row is
 * updated, and takes no row it would wait for, so a batch and a letting cannot wait for each other.
 */
export class VersionedWrites<Row extends VersionedRow, Write extends RentalWrite> {
  private readonly reads: Batcher<RentalPath, Row | undefined>;
  private readonly writes: Batcher<Write, boolean>;
  private readonly rentalOf: (row: Row | undefined, ref: RentalPath) => Row;
  /** The last change of each rental under way in this process, which the next one waits for. */
  private readonly turns = new Map<string, Promise<unknown>>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly statements: VersionedStatements<Row, Write>,
  ) {
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
        // On the DataSource: one statement, its own transaction.
        const changed = new Set(await statements.write(dataSource, writes));
        return writes.map((write) => changed.has(write.rentalRecordUuid));
      },
      // One write of a rental in flight at a time: in one batch a second would match the row the first changes, in
      // two batches they would wait for each other.
      { concurrency: BATCHES_IN_FLIGHT, maxSize: MAX_BATCH, key: (write) => write.rentalRecordUuid },
    );
  }

  /**
   * Reads the rental of `ref` (404; 409 when it has moved out, as `lockActiveRental`, unless `movedOut` accepts it), lets `decide` check the request against it
   * (throwing its refusal) and build the write, and writes it if the rental is still as read; else again, under the
   * rental's lock. Before each attempt, `answered` may give the answer of the same request made earlier (an
   * idempotent retry): nothing is written then, whatever the rental's state now.
   */
  async apply<Result>(ref: RentalPath, decide: (row: Row) => { write: Write; result: Result }, answered?: Answered<Result>): Promise<Result> {
    // This process's changes of one rental take turns: read together, they would all but one lose their version
    // and queue on the lock. Only writers elsewhere (other replicas, other kinds) race it.
    const key = ref.rentalRecordUuid;
    const mine = (this.turns.get(key) ?? Promise.resolve()).catch(() => undefined).then(() => this.attempt(ref, decide, answered));
    this.turns.set(key, mine);
    try {
      return await mine;
    } finally {
      if (this.turns.get(key) === mine) this.turns.delete(key);
    }
  }

  private async attempt<Result>(ref: RentalPath, decide: (row: Row) => { write: Write; result: Result }, answered?: Answered<Result>): Promise<Result> {
    const earlier = await answered?.(this.dataSource);
    if (earlier !== undefined) return earlier;
    const { write, result } = decide(this.rentalOf(await this.reads.run(ref), ref));
    if (await this.writes.run(write)) return result;
    return this.underLock(ref, decide, answered);
  }

  /**
   * The write of a rental another writer changed since it was read: after that writer, behind the rental's lock (the
   * one every writer of a rental takes, with its tenant's other rentals).
   */
  private underLock<Result>(ref: RentalPath, decide: (row: Row) => { write: Write; result: Result }, answered?: Answered<Result>): Promise<Result> {
    return this.dataSource.transaction(async (manager) => {
      await lockRental(manager, ref);
      const earlier = await answered?.(manager);
      if (earlier !== undefined) return earlier;
      const [row] = await query(manager, this.statements.read, [[ref.rentalRecordUuid], [ref.facilityUuid], [ref.portfolioUuid]]);
      const { write, result } = decide(this.rentalOf(row, ref));
      const written = await this.statements.write(manager, [write]);
      // Unreachable: the row is locked by this transaction since before its read.
      if (written.length !== 1) throw new Error(`Rental record ${ref.rentalRecordUuid} changed under its lock`);
      return result;
    });
  }
}

/** The answer given earlier to the same request (an idempotent retry), looked up where the write would run. */
export type Answered<Result> = (db: Queryable) => Promise<Result | undefined>;
