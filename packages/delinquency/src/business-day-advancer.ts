import { randomUUID } from 'node:crypto';
import type { PoolClient, QueryResult } from 'pg';
import type { DataSource, QueryRunner } from 'typeorm';
import {
  applyDelinquencyTrigger,
  stageRank,
  toEventStatus,
  isUuid,
  topicFor,
  transitionsForBusinessDate,
  type CalendarDate,
  type DelinquencySchedule,
  type DelinquencyTransition,
} from '@storage/domain';
import { OUTBOX_CHANNEL } from '@storage/messaging';
import { RENTAL_EVENT_CONTEXT_COLUMNS, RENTAL_EVENT_CONTEXT_JOINS, rentalEventContextOf, type RentalEventContextRow } from '@storage/rental-events';
import { AUCTION_COLUMNS, auctionEventObject, newAuction, type AuctionRow } from './auctions';
import { eventTimes } from './event-times';
import { delinquencyState, lockedRentalFromRow, oldestUnpaidDueDate, type LockedRental, type LockedRentalRow } from './locked-rental';
import { envelopeOf, type PendingEvent } from './rental-event-batch';
import { pastDueSinceAfter, statusChangeEvent } from './transition-writer';

/*
 * The business-day run's write path: the transitions of `DelinquencyService.advance` (STAGE_ADVANCE and
 * PAYMENT_CLEARED, with the same effects and events as `writeTransition`), each in its own transaction, in
 * two round trips instead of about ten. Statements are prepared once per connection (SQL PREPARE) and run
 * with EXECUTE in simple-protocol messages of several statements, arguments written as escaped literals:
 *
 * 1. `BEGIN; lock the rental; read its state, pending auction and event context`. The state is read by a
 *    statement after the lock (each statement of a message takes its own snapshot), so a run that waited
 *    for the lock sees the holder's commit, as `lockRental` does.
 * 2. `one statement with data-modifying CTEs (late fee, delinquency, auction, gate suspension, outbox rows);
 *    COMMIT` (or `ROLLBACK` when the date brings nothing). The event payloads are built from the context
 *    read under the lock with this change applied (the late fee on both balances): exactly what reading it
 *    again after the writes would return.
 *
 * Outbox rows are inserted as OutboxPublisher inserts them (the transaction id taken before the outbox id,
 * which the embedded LogReader relies on) but without a NOTIFY in every transaction: a transaction that
 * notifies holds a cluster-wide lock through its commit, which serialises every commit of the run behind
 * one WAL flush each. Instead a worker notifies (autocommit, after its commit) when no worker of the
 * advancer has for NOTIFY_EVERY_MS, and each worker when it is released with commits not notified yet; a
 * listener also polls, so nothing depends on the wake-up.
 */

const NOTIFY_EVERY_MS = 100;

const LOCK_SQL = 'SELECT 1 FROM rental_records WHERE uuid = $1 FOR NO KEY UPDATE';

/** The locked rental's state, pending auction (when the balance is cleared) and event context. */
const STATE_SQL = `
SELECT r.status AS rental_status, (now() AT TIME ZONE f.time_zone)::date::text AS facility_today,
       d.delinquency_uuid, d.status AS delinquency_status, d.paused_from, d.past_due_since::text AS past_due_since,
       d.status_changed_on::text AS status_changed_on, d.last_business_date::text AS last_business_date, d.last_event_at,
       CASE WHEN r.balance_in_pennies <= 0 THEN
         (SELECT row_to_json(a) FROM (SELECT ${AUCTION_COLUMNS} FROM auctions
                                       WHERE rental_record_uuid = r.uuid AND stage IN ('CREATED', 'SCHEDULED')) a)
       END AS pending_auction,
       ${RENTAL_EVENT_CONTEXT_COLUMNS}
  FROM rental_records r ${RENTAL_EVENT_CONTEXT_JOINS}
  LEFT JOIN delinquencies d ON d.rental_record_uuid = r.uuid
 WHERE r.uuid = $1`;

interface StateRow extends RentalEventContextRow, LockedRentalRow {
  pending_auction: AuctionRow | null;
}

const WRITE_SQL = `
WITH late_fee AS (
  UPDATE rental_records SET balance_in_pennies = balance_in_pennies + $2, updated_at = now()
   WHERE uuid = $1 AND $2::int > 0
), delinquency AS (
  INSERT INTO delinquencies (rental_record_uuid, facility_uuid, delinquency_uuid, status, paused_from, past_due_since,
                             status_changed_on, last_business_date, written_off_in_pennies, last_event_at)
  VALUES ($1, $3, $4, $5, $6, $7, $8, $9, 0, $10)
  ON CONFLICT (rental_record_uuid) DO UPDATE SET delinquency_uuid = EXCLUDED.delinquency_uuid, status = EXCLUDED.status,
    paused_from = EXCLUDED.paused_from, past_due_since = EXCLUDED.past_due_since, status_changed_on = EXCLUDED.status_changed_on,
    last_business_date = COALESCE(EXCLUDED.last_business_date, delinquencies.last_business_date),
    written_off_in_pennies = delinquencies.written_off_in_pennies + EXCLUDED.written_off_in_pennies,
    last_event_at = EXCLUDED.last_event_at, updated_at = now()
), auction AS (
  INSERT INTO auctions (uuid, rental_record_uuid, delinquency_uuid, facility_uuid, stage, scheduled_on, start_date, end_date,
                        canceled_on, completed_on, minimum_bid_in_pennies, winning_bid_in_pennies)
  SELECT a.uuid, a.rental_record_uuid, a.delinquency_uuid, a.facility_uuid, a.stage, a.scheduled_on, a.start_date, a.end_date,
         a.canceled_on, a.completed_on, a.minimum_bid_in_pennies, a.winning_bid_in_pennies
    FROM jsonb_populate_recordset(NULL::auctions, $11::jsonb) a
  ON CONFLICT (uuid) DO UPDATE SET stage = EXCLUDED.stage, scheduled_on = EXCLUDED.scheduled_on,
    start_date = EXCLUDED.start_date, end_date = EXCLUDED.end_date, canceled_on = EXCLUDED.canceled_on,
    completed_on = EXCLUDED.completed_on, minimum_bid_in_pennies = EXCLUDED.minimum_bid_in_pennies,
    winning_bid_in_pennies = EXCLUDED.winning_bid_in_pennies, updated_at = now()
), suspend_gate AS (
  INSERT INTO gate_code_suspensions (rental_record_uuid, facility_uuid, suspended_on)
  SELECT $1, $3, $8 WHERE $12::text = 'SUSPEND'
  ON CONFLICT (rental_record_uuid) DO NOTHING
), restore_gate AS (
  DELETE FROM gate_code_suspensions WHERE rental_record_uuid = $1 AND $12::text = 'RESTORE'
), events AS (
  INSERT INTO outbox (id, topic, key, type, event_id, source, envelope)
  SELECT nextval(pg_get_serial_sequence('outbox', 'id')), e.topic, e.key, e.type, e.event_id, $13, e.envelope
    FROM (SELECT pg_current_xact_id() AS xid OFFSET 0) AS tx,
         unnest($14::text[], $15::text[], $16::text[], $17::text[], $18::jsonb[]) WITH ORDINALITY AS e(topic, key, type, event_id, envelope, ord)
   WHERE tx.xid IS NOT NULL
   ORDER BY e.ord
)
SELECT 1`;

/** Prepared once per connection (session); `_v1` to be bumped when a text changes shape. */
const PREPARE_SQL = `
PREPARE delinquency_run_lock_v1(uuid) AS ${LOCK_SQL};
PREPARE delinquency_run_state_v1(uuid) AS ${STATE_SQL};
PREPARE delinquency_run_write_v1(uuid, int, uuid, uuid, rental_delinquency_status, rental_delinquency_status, date, date, date,
                                 timestamptz, text, text, text, text[], text[], text[], text[], text[]) AS ${WRITE_SQL}`;

/** The connections (pg clients) this process prepared the statements on. */
const prepared = new WeakSet<PoolClient>();

type GateChange = 'SUSPEND' | 'RESTORE' | 'NONE';

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
    const runner = this.dataSource.createQueryRunner();
    const client = (await runner.connect()) as PoolClient;
    try {
      if (!prepared.has(client)) {
        await client.query(PREPARE_SQL);
        prepared.add(client);
      }
    } catch (error) {
      await runner.release();
      throw error;
    }
    return new BusinessDayWorker(runner, client, this.source, this.notifications);
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
    private readonly client: PoolClient,
    private readonly source: string,
    private readonly notifications: NotifyThrottle,
  ) {}

  /**
   * Applies every transition `businessDate` brings the rental, in order, each in its own transaction and
   * decided under the rental's lock (as `DelinquencyService.advance` called until null); returns how many.
   */
  async catchUp(rentalRecordUuid: string, businessDate: CalendarDate, schedule: DelinquencySchedule): Promise<number> {
    let applied = 0;
    for (;;) {
      const { transition, more } = await this.advance(rentalRecordUuid, businessDate, schedule);
      if (transition === null) return applied;
      applied++;
      if (!more) return applied;
    }
  }

  /** Notifies what is left to notify and returns the connection to the pool. */
  async release(): Promise<void> {
    try {
      if (this.unnotified) await this.notify();
    } finally {
      await this.runner.release();
    }
  }

  /** The first transition of the date, in its own transaction; `more` when the date brings another after it. */
  private async advance(
    rentalRecordUuid: string,
    businessDate: CalendarDate,
    schedule: DelinquencySchedule,
  ): Promise<{ transition: DelinquencyTransition | null; more: boolean }> {
    if (!isUuid(rentalRecordUuid)) throw new Error(`Not a rental record uuid: ${String(rentalRecordUuid)}`);
    let open = true;
    try {
      const uuid = literal(this.client, rentalRecordUuid);
      // The state is read by a statement after the lock: its snapshot sees what the lock's previous holder committed.
      const results = (await this.client.query(
        `BEGIN; EXECUTE delinquency_run_lock_v1(${uuid}); EXECUTE delinquency_run_state_v1(${uuid})`,
      )) as unknown as QueryResult<StateRow>[];
      const row = results[2]?.rows[0];
      const rental = row === undefined ? null : lockedRentalFromRow(row);
      // A run of an older date after a newer one must not backdate anything.
      const processed = rental?.delinquency?.lastBusinessDate;
      const transitions =
        row === undefined || rental === null || !rental.active || (processed != null && processed > businessDate)
          ? []
          : transitionsForBusinessDate({
              ...delinquencyState(rental),
              balanceInPennies: rental.balanceInPennies,
              oldestUnpaidDueDate: oldestUnpaidDueDate(rental),
              schedule,
              businessDate,
            });
      const [transition] = transitions;
      if (row === undefined || rental === null || transition === undefined) {
        open = false;
        await this.client.query('ROLLBACK');
        return { transition: null, more: false };
      }
      const parameters = this.writeParameters(row, rental, transition, businessDate, schedule);
      // Should EXECUTE fail, COMMIT does not run (the rest of a failed message is skipped) and the catch rolls back.
      await this.client.query(`EXECUTE delinquency_run_write_v1(${parameters.map((value) => literal(this.client, value)).join(', ')}); COMMIT`);
      open = false;
      this.unnotified = true;
      if (this.notifications.due()) await this.notify();
      return { transition, more: transitions.length > 1 };
    } catch (error) {
      if (open) await this.client.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
  }

  private async notify(): Promise<void> {
    this.unnotified = false;
    await this.client.query(`SELECT pg_notify('${OUTBOX_CHANNEL}', '')`);
  }

  /** The change `writeTransition` makes for a business-day transition, as the parameters of WRITE_SQL. */
  private writeParameters(
    row: StateRow,
    rental: LockedRental,
    transition: DelinquencyTransition,
    businessDate: CalendarDate,
    schedule: DelinquencySchedule,
  ): unknown[] {
    if (transition.trigger !== 'STAGE_ADVANCE' && transition.trigger !== 'PAYMENT_CLEARED') {
      throw new Error(`A business day does not ${transition.trigger}`);
    }
    const state = delinquencyState(rental);
    const next = applyDelinquencyTrigger(state, transition.trigger);
    if (next.status !== transition.to) throw new Error(`${transition.trigger} leads ${state.status} to ${next.status}, not ${transition.to}`);
    const day = transition.effectiveDate;
    const startsEpisode = next.status === 'OVERDUE' && stageRank(state.status) === 0;
    const delinquencyUuid = startsEpisode || rental.delinquency === null ? randomUUID() : rental.delinquency.delinquencyUuid;
    const newStatus = toEventStatus(next.status);
    if (newStatus === null) throw new Error('No transition leads back to not delinquent');
    const events: PendingEvent[] = [];
    const auctions: AuctionRow[] = [];

    if (next.status === 'PAID' && row.pending_auction !== null) {
      // A pending auction ends with the delinquency that called for it, announced before the change.
      const canceled = { ...row.pending_auction, stage: 'CANCELED' as const, canceledOn: day };
      auctions.push(canceled);
      events.push({ type: 'auction', added: { auction: auctionEventObject(canceled) } });
    }
    const lateFee = startsEpisode ? Math.max(schedule.lateFeeInPennies, 0) : 0;
    if (lateFee > 0) {
      events.push({
        type: 'charge-posted',
        payload: {
          rentalRecordUuid: rental.rentalRecordUuid,
          chargeUuid: randomUUID(),
          amountInPennies: lateFee,
          description: 'Late fee',
          balanceAfterInPennies: rental.balanceInPennies + lateFee,
          dueDate: day,
        },
      });
    }
    events.push(statusChangeEvent(delinquencyUuid, state.status, newStatus, day, transition.trigger === 'PAYMENT_CLEARED' ? day : null));
    if (next.status === 'AUCTION' && transition.trigger === 'STAGE_ADVANCE') {
      const auction = newAuction({
        rentalRecordUuid: rental.rentalRecordUuid,
        delinquencyUuid,
        facilityUuid: rental.facilityUuid,
        createdOn: day,
        balanceInPennies: rental.balanceInPennies,
      });
      auctions.push(auction);
      events.push({ type: 'auction', added: { auction: auctionEventObject(auction) } });
    }
    const gate: GateChange =
      next.status === 'OVERLOCK' || next.status === 'LIEN' || next.status === 'AUCTION'
        ? 'SUSPEND'
        : next.status === 'PAID'
          ? 'RESTORE'
          : 'NONE';

    // The payloads show the rental as this change leaves it: the late fee on its balance and the tenant's.
    const context = rentalEventContextOf(row);
    context.base.unitRental.rentalBalance += lateFee;
    context.base.tenantBalanceInPennies += lateFee;
    const times = eventTimes(rental.delinquency?.lastEventAt ?? null, events.length);
    const envelopes = events.map((event, index) => {
      const at = times[index];
      if (at === undefined) throw new Error('One time is needed per event');
      return envelopeOf(event, context, at);
    });

    return [
      rental.rentalRecordUuid,
      lateFee,
      rental.facilityUuid,
      delinquencyUuid,
      next.status,
      next.pausedFrom,
      pastDueSinceAfter(rental, transition, startsEpisode),
      day,
      businessDate,
      times[times.length - 1] ?? null,
      JSON.stringify(auctions.map(auctionRecord)),
      gate,
      this.source,
      envelopes.map((envelope) => topicFor(envelope.type)),
      envelopes.map((envelope) => envelope.key),
      envelopes.map((envelope) => envelope.type),
      envelopes.map((envelope) => envelope.eventId),
      envelopes.map((envelope) => JSON.stringify(envelope)),
    ];
  }
}

/** A value as an SQL literal for EXECUTE (its type comes from the prepared statement's parameter). */
function literal(client: PoolClient, value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new Error(`Not an integer: ${value}`);
    return String(value);
  }
  if (typeof value === 'string') return client.escapeLiteral(value);
  if (value instanceof Date) return client.escapeLiteral(value.toISOString());
  if (Array.isArray(value)) return `ARRAY[${value.map((element) => literal(client, element)).join(', ')}]::text[]`;
  throw new Error(`No literal for ${typeof value}`);
}

/** An auction as a row of the `auctions` table (for jsonb_populate_recordset). */
function auctionRecord(auction: AuctionRow): Record<string, unknown> {
  return {
    uuid: auction.uuid,
    rental_record_uuid: auction.rentalRecordUuid,
    delinquency_uuid: auction.delinquencyUuid,
    facility_uuid: auction.facilityUuid,
    stage: auction.stage,
    scheduled_on: auction.scheduledOn,
    start_date: auction.startDate,
    end_date: auction.endDate,
    canceled_on: auction.canceledOn,
    completed_on: auction.completedOn,
    minimum_bid_in_pennies: auction.minimumBidInPennies,
    winning_bid_in_pennies: auction.winningBidInPennies,
  };
}
