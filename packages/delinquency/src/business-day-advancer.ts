import type { DataSource, QueryRunner } from 'typeorm';
import { isUuid, transitionsForBusinessDate, type CalendarDate, type DelinquencySchedule, type DelinquencyTransition } from '@storage/domain';
import { OUTBOX_CHANNEL } from '@storage/messaging';
import { bind, query, sql, transactionInOneRoundTrip } from '@storage/persistence';
import { RENTAL_EVENT_CONTEXT_COLUMNS, RENTAL_EVENT_CONTEXT_JOINS, rentalEventContextOf, type RentalEventContextRow } from '@storage/rental-events';
import { LOCK_TENANTS_OF } from '@storage/rentals';
import { AUCTION_COLUMNS, type AuctionRow } from './auctions';
import { delinquencyInput, lockedRentalFromRow, type LockedRental, type LockedRentalRow } from './locked-rental';
import { STATE_VERSION, VERSIONED_RENTAL } from './state-version';
import { transitionWrite, transitionWritesValues, VERSIONED_TRANSITION_WRITES, type TransitionWriteArguments } from './transition-write';

/*
 * The business-day run: the transitions a business date brings (STAGE_ADVANCE and PAYMENT_CLEARED), written
 * by the transition write (`transitionWrite`, the statement `writeTransition` runs too), a worker's batch of
 * rentals in one transaction sent in one round trip (`transactionInOneRoundTrip` of `@storage/persistence`).
 *
 * The work is optimistic. A worker reads the state and then the event context of many rentals in one round trip,
 * decides each rental's transition from what it read, and sends one transaction: lock the batch's rentals, write them
 * with one statement of data-modifying CTEs (VERSIONED_TRANSITION_WRITES: late fees, delinquencies, auctions, gate
 * suspensions, outbox rows), which answers the rentals it wrote, commit: one commit, one lock round and one
 * statement per batch rather than per rental, which is what a transition mostly cost. Each rental is written only
 * if it is still as read: the state version (STATE_VERSION) read under the lock must equal the one the decision was
 * made on. Otherwise nothing of it is written and the rental is read and decided again, as it is after a transition when the date brings
 * another (catch-up). The version is read by a statement after the lock: a statement that waited for the lock
 * would still see the snapshot from before the holder's commit (Postgres rechecks only the locked row, not the
 * joined delinquency). Should any write of a batch fail, the whole batch is rolled back and each of its rentals
 * written in a transaction of its own, so one bad rental is reported alone and the others go on, once each.
 *
 * The statements that read the tables the run fills (the state read and the write: auctions, gate code suspensions,
 * delinquencies) are planned for each batch rather than prepared once per connection: on a new deployment those
 * tables were empty when autovacuum last analysed them. A plan is made for a table as it is when planned (its size,
 * not its statistics), but a connection's cached plan (the generic plan of a prepared statement) would go on scanning
 * them whole for every batch as the run fills them. The event contexts, which read none of them and cost most of the
 * read's planning, stay prepared (benchmark log, issue 38).
 *
 * Outbox rows carry no NOTIFY in every transaction: a transaction that notifies holds a cluster-wide lock
 * through its commit, which serialises every commit of the run behind one WAL flush each. Instead a worker
 * notifies (autocommit, after its commit) when no worker of the advancer has for NOTIFY_EVERY_MS, and each
 * worker when it is released with commits not notified yet; a listener also polls, so nothing depends on
 * the wake-up.
 */

const NOTIFY_EVERY_MS = 100;

/** How often a rental may change under a worker between its read and its write before the run gives up on it. */
const MAX_CONFLICTS = 10;

/**
 * The rentals' delinquency states, pending auctions (canceled if the rental is cleared) and state versions: what a
 * transition is decided on. Planned for each batch (it reads auctions, which the run fills).
 */
const STATES = sql<StateRow, [readonly string[]]>(
  `
SELECT r.uuid AS rental_record_uuid, r.facility_uuid, r.unit_uuid, r.status AS rental_status, r.balance_in_pennies,
       (SELECT (now() AT TIME ZONE tz.time_zone)::date::text FROM facilities tz WHERE tz.uuid = r.facility_uuid) AS facility_today,
       r.oldest_open_due_on::text AS oldest_open_due_on,
       d.delinquency_uuid, d.status AS delinquency_status, d.paused_from, d.past_due_since::text AS past_due_since,
       d.status_changed_on::text AS status_changed_on, d.last_business_date::text AS last_business_date, d.last_event_at,
       CASE WHEN d.status IN ('OVERDUE', 'OVERLOCK', 'LIEN', 'AUCTION') THEN
         (SELECT row_to_json(a) FROM (SELECT ${AUCTION_COLUMNS} FROM auctions
                                       WHERE rental_record_uuid = r.uuid AND stage IN ('CREATED', 'SCHEDULED')) a)
       END AS pending_auction,
       ${STATE_VERSION} AS state_version
  FROM ${VERSIONED_RENTAL}
 WHERE r.uuid = ANY($1::uuid[])`,
);

interface StateRow extends LockedRentalRow {
  pending_auction: AuctionRow | null;
  state_version: string;
}

/**
 * The rentals' event contexts, read after their states, so whatever changed in between changes the state version
 * too, and the rental is written only if nothing did. Prepared: the run fills none of the tables it reads, and its
 * plan is most of what planning the read would cost.
 */
const CONTEXTS = sql<RentalEventContextRow, [readonly string[]]>(
  `SELECT ${RENTAL_EVENT_CONTEXT_COLUMNS} FROM rental_records r ${RENTAL_EVENT_CONTEXT_JOINS} WHERE r.uuid = ANY($1::uuid[])`,
  { prepared: 'delinquency_run_contexts' },
);

/** A rental as read: its state, then its event context. */
interface ReadRow extends StateRow {
  context: RentalEventContextRow;
}

const NOTIFY_OUTBOX = sql<unknown>(`SELECT pg_notify('${OUTBOX_CHANNEL}', '')`);

/** What a worker did with its rentals: transitions applied, and the rentals it could not advance. */
export interface AdvanceResult {
  transitions: number;
  failures: { rentalRecordUuid: string; error: unknown }[];
}

/** Applies business-day transitions; one `Worker` (one connection) per concurrent worker of a run. */
export class BusinessDayAdvancer {
  private readonly notifications = new NotifyThrottle();

  /**
   * @param source the producing service, recorded on the outbox rows (what OutboxPublisher is given)
   */
  constructor(
    private readonly dataSource: DataSource,
    private readonly source: string,
  ) {}

  /** A worker holding one pooled connection until released. */
  async worker(): Promise<BusinessDayWorker> {
    return new BusinessDayWorker(this.dataSource.createQueryRunner(), this.source, this.notifications);
  }
}

/** When the advancer's workers last notified the outbox channel (shared, so a run sends few notifications). */
class NotifyThrottle {
  private last = 0;

  /** True (and counted as sent) when the last notification is older than NOTIFY_EVERY_MS. */
  due(): boolean {
    const now = Date.now();
    if (now - this.last < NOTIFY_EVERY_MS) return false;
    this.last = now;
    return true;
  }
}

export class BusinessDayWorker {
  private unnotified = false;

  constructor(
    private readonly runner: QueryRunner,
    private readonly source: string,
    private readonly notifications: NotifyThrottle,
  ) {}

  /**
   * Applies every transition `businessDate` brings each rental, in order (a rental that is behind catches up
   * stage by stage), a batch of rentals per transaction. A rental that fails is reported and the others go on.
   */
  async advance(rentalRecordUuids: readonly string[], businessDate: CalendarDate, schedule: DelinquencySchedule): Promise<AdvanceResult> {
    const result: AdvanceResult = { transitions: 0, failures: [] };
    const conflicts = new Map<string, number>();
    // Rentals of a batch that failed (and wrote nothing): each is then written in a transaction of its own, so
    // one bad rental is reported alone and the others go on.
    const alone = new Set<string>();
    let pending = rentalRecordUuids.filter((uuid) => {
      if (isUuid(uuid)) return true;
      result.failures.push({ rentalRecordUuid: uuid, error: new Error(`Not a rental record uuid: ${String(uuid)}`) });
      return false;
    });
    while (pending.length > 0) {
      let rows: ReadRow[];
      try {
        rows = await this.read(pending);
      } catch (error) {
        result.failures.push(...pending.map((rentalRecordUuid) => ({ rentalRecordUuid, error })));
        return result;
      }
      const writes: Write[] = [];
      for (const row of rows) {
        try {
          const decision = decide(row, businessDate, schedule);
          if (decision !== null) writes.push({ row, decision, write: this.writeArguments(row, decision, businessDate, schedule) });
        } catch (error) {
          result.failures.push({ rentalRecordUuid: row.rental_record_uuid, error });
        }
      }
      const again: string[] = [];
      // One rental per tenant in a statement: the payloads show the tenant's balance as read, which another of
      // their rentals' late fee, written by the same statement, would move unseen. The others go in the next round.
      const tenants = new Set<string>();
      const together = writes.filter((write) => {
        if (alone.has(write.row.rental_record_uuid)) return false;
        if (tenants.has(write.row.context.person_uuid)) {
          again.push(write.row.rental_record_uuid);
          return false;
        }
        tenants.add(write.row.context.person_uuid);
        return true;
      });
      const batches = [
        ...(together.length > 0 ? [together] : []),
        ...writes.filter((write) => alone.has(write.row.rental_record_uuid)).map((write) => [write]),
      ];
      for (const batch of batches) {
        let applied: boolean[];
        try {
          applied = await this.write(batch);
        } catch (error) {
          const [only] = batch;
          if (batch.length === 1 && only !== undefined) result.failures.push({ rentalRecordUuid: only.row.rental_record_uuid, error });
          else {
            for (const { row } of batch) {
              alone.add(row.rental_record_uuid);
              again.push(row.rental_record_uuid);
            }
          }
          continue;
        }
        for (const [index, write] of batch.entries()) {
          const uuid = write.row.rental_record_uuid;
          if (applied[index] === true) {
            result.transitions++;
            if (write.decision.more) again.push(uuid);
            continue;
          }
          const seen = (conflicts.get(uuid) ?? 0) + 1;
          conflicts.set(uuid, seen);
          if (seen > MAX_CONFLICTS)
            result.failures.push({ rentalRecordUuid: uuid, error: new Error(`Rental record ${uuid} kept changing while being advanced`) });
          else again.push(uuid);
        }
      }
      pending = again;
    }
    return result;
  }

  /** Notifies what is left to notify and returns the connection to the pool. */
  async release(): Promise<void> {
    try {
      if (this.unnotified) await this.notify();
    } finally {
      await this.runner.release();
    }
  }

  /**
   * The rentals' states and then their event contexts, in one round trip; a rental gone in between is not read.
   * Two statements, so only the state's (the one that reads the tables the run fills) is planned for each batch.
   */
  private async read(rentalRecordUuids: readonly string[]): Promise<ReadRow[]> {
    const [states, contexts] = await transactionInOneRoundTrip(this.runner, [bind(STATES, [rentalRecordUuids]), bind(CONTEXTS, [rentalRecordUuids])]);
    const contextOf = new Map(contexts.map((context) => [context.rental_record_uuid, context]));
    return states.flatMap((state) => {
      const context = contextOf.get(state.rental_record_uuid);
      return context === undefined ? [] : [{ ...state, context }];
    });
  }

  /**
   * The writes in one transaction, sent in one round trip: lock the rentals with their tenants' other rentals
   * (`LOCK_TENANTS_OF`: a worker writing another rental of a tenant holds it until its commit, and the write then
   * sees that rental changed, and reads and decides again), write those unchanged (one statement for the batch),
   * commit. Says which wrote. Should the statement fail, nothing is written and the error is thrown.
   */
  private async write(writes: readonly Write[]): Promise<boolean[]> {
    const uuids = writes.map(({ row }) => row.rental_record_uuid);
    const [, answer] = await transactionInOneRoundTrip(this.runner, [
      bind(LOCK_TENANTS_OF, [uuids, null, null]),
      bind(
        VERSIONED_TRANSITION_WRITES,
        transitionWritesValues(
          writes.map(({ write }) => write),
          this.source,
        ),
      ),
    ]);
    const written = new Set(answer.map((row) => row.uuid));
    const applied = uuids.map((uuid) => written.has(uuid));
    if (applied.includes(true)) {
      this.unnotified = true;
      if (this.notifications.due()) await this.notify();
    }
    return applied;
  }

  private async notify(): Promise<void> {
    this.unnotified = false;
    await query(this.runner, NOTIFY_OUTBOX);
  }

  /** A business-day transition as the arguments of the transition write, made only if the rental is still as read. */
  private writeArguments(row: ReadRow, decision: Decision, businessDate: CalendarDate, schedule: DelinquencySchedule): TransitionWriteArguments {
    const { rental, transition } = decision;
    if (transition.trigger !== 'STAGE_ADVANCE' && transition.trigger !== 'PAYMENT_CLEARED') {
      throw new Error(`A business day does not ${transition.trigger}`);
    }
    return transitionWrite({
      rental,
      transition,
      pendingAuction: row.pending_auction,
      context: rentalEventContextOf(row.context),
      stateVersion: row.state_version,
      options: {
        businessDate,
        lateFeeInPennies: schedule.lateFeeInPennies,
        // The balance was found cleared without its payment applied yet: the payment caused it.
        paymentDate: transition.trigger === 'PAYMENT_CLEARED' ? transition.effectiveDate : null,
      },
    }).arguments;
  }
}

/** A rental's transition, decided from its state as read, and the arguments of its write. */
interface Write {
  row: ReadRow;
  decision: Decision;
  write: TransitionWriteArguments;
}

/** The first transition a rental's state as read brings on `businessDate`; `more` when another follows it. */
interface Decision {
  rental: LockedRental;
  transition: DelinquencyTransition;
  more: boolean;
}

function decide(row: StateRow, businessDate: CalendarDate, schedule: DelinquencySchedule): Decision | null {
  const rental = lockedRentalFromRow(row);
  // A run of an older date after a newer one must not backdate anything.
  const processed = rental.delinquency?.lastBusinessDate;
  if (!rental.active || (processed != null && processed > businessDate)) return null;
  const transitions = transitionsForBusinessDate({ ...delinquencyInput(rental), schedule, businessDate });
  const [transition] = transitions;
  return transition === undefined ? null : { rental, transition, more: transitions.length > 1 };
}
