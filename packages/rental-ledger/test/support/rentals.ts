import { query, sql, type Queryable } from '@storage/persistence';
import type { RentalParents } from '@storage/testing';

/** The columns of a test rental; each one left out takes the table's default (or is not written at all). */
export interface RentalColumns {
  rentInPennies?: number;
  /** Written only when given: the ledger's trigger refuses any balance but the entries' sum. */
  balanceInPennies?: number;
  billingDayOfMonth: number;
  nextDueDate: string;
  startDate: string;
  /** Written only when given, so a schema from before the column (an undone migration) takes the row too. */
  tenancyStartDate?: string | null;
}

const COLUMNS: Record<keyof RentalColumns, string> = {
  rentInPennies: 'rent_in_pennies',
  balanceInPennies: 'balance_in_pennies',
  billingDayOfMonth: 'billing_day_of_month',
  nextDueDate: 'next_due_date',
  startDate: 'start_date',
  tenancyStartDate: 'tenancy_start_date',
};

/**
 * A rental of 10000 a month on the parents' unit, for the person of the parents, with the columns given. Its row is
 * @storage/rentals', which these tests cannot call: rentals depends on this package (its tests post through it), so
 * depending on it back would be a workspace cycle, which turbo refuses. So the row is inserted here, with the bypass
 * stated, and nothing else a rental has (gate code, services): the ledger reads only the row.
 */
export async function insertRental(db: Queryable, parents: RentalParents, columns: RentalColumns): Promise<string> {
  const given = Object.entries({ rentInPennies: 10_000, ...columns }).filter(([, value]) => value !== undefined) as [keyof RentalColumns, unknown][];
  const names = ['portfolio_uuid', 'facility_uuid', 'unit_uuid', 'unit_group_uuid', 'person_uuid', ...given.map(([key]) => COLUMNS[key])];
  const values = [parents.portfolioUuid, parents.facilityUuid, parents.unitUuid, parents.unitGroupUuid, parents.personUuid, ...given.map(([, value]) => value)];
  const [row] = await query(
    db,
    sql<{ uuid: string }>(
      `INSERT INTO rental_records (${names.join(', ')}) VALUES (${values.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING uuid
       -- owner-bypass: rentals' row, which this package's tests cannot reach (@storage/rentals depends on it: a workspace cycle)`,
    ),
    values,
  );
  return row.uuid;
}
