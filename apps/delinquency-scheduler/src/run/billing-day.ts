import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { CalendarDate } from '@storage/domain';
import { query, sql } from '@storage/persistence';
import { billRentals } from '@storage/rental-ledger';
import { SERVICE_NAME } from '../service-info';

/** Rentals billed per statement: one read of their terms, one write of their entries, next due dates and events. */
const BATCH = 250;

const DUE_RENTALS = sql<{ uuid: string }, [facilityUuid: string, businessDate: CalendarDate]>(
  `SELECT uuid FROM rental_records WHERE facility_uuid = $1 AND status = 'ACTIVE' AND next_due_date <= $2::date ORDER BY uuid`,
);

/** How often a rental may change under the run (a payment, say) between its read and its write before the run gives up on it. */
const MAX_CONFLICTS = 10;

export interface BillingResult {
  rentals: number;
  charges: number;
  failures: { rentalRecordUuid: string; error: unknown }[];
}

/**
 * The first half of a facility's business day: every active rental whose next due date has come gets the
 * charges of each period due through the date, in order (missed days caught up), and its next due date moved
 * past them (`billRentals` of `@storage/rental-ledger`, exactly once per rental and period).
 */
@Injectable()
export class BillingDay {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async bill(facilityUuid: string, businessDate: CalendarDate, workers: number): Promise<BillingResult> {
    const due = await query(this.dataSource, DUE_RENTALS, [facilityUuid, businessDate]);
    const result: BillingResult = { rentals: 0, charges: 0, failures: [] };
    let next = 0;
    const worker = async (): Promise<void> => {
      for (let start = next; start < due.length; start = next) {
        next = start + BATCH;
        await this.billBatch(
          due.slice(start, next).map((row) => row.uuid),
          businessDate,
          result,
        );
      }
    };
    await Promise.all(Array.from({ length: Math.min(Math.max(1, workers), Math.ceil(due.length / BATCH)) }, worker));
    return result;
  }

  /** A batch, then what changed under it again, until all are billed; a batch that fails is reported rental by rental. */
  private async billBatch(uuids: string[], businessDate: CalendarDate, result: BillingResult): Promise<void> {
    let pending = uuids;
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > MAX_CONFLICTS) {
        result.failures.push(
          ...pending.map((rentalRecordUuid) => ({ rentalRecordUuid, error: new Error(`Rental record ${rentalRecordUuid} kept changing while being billed`) })),
        );
        return;
      }
      try {
        const billed = await billRentals(this.dataSource, pending, businessDate, { postedOn: businessDate, source: SERVICE_NAME });
        result.rentals += billed.billed.length;
        result.charges += billed.charges;
        pending = billed.changed;
      } catch (error) {
        const [only] = pending;
        if (pending.length === 1 && only !== undefined) {
          result.failures.push({ rentalRecordUuid: only, error });
          return;
        }
        // One bad rental must not hold back the others: each is billed alone.
        for (const uuid of pending) await this.billBatch([uuid], businessDate, result);
        return;
      }
    }
  }
}
