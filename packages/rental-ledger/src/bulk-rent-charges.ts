import { query, sql, type Queryable, type Sql } from '@storage/persistence';

/** A rental that owes the period under way, as a bulk load's query yields it. */
export interface RentalOwingCurrentPeriod {
  rental_record_uuid: string;
}

/**
 * Posts the rent of the period under way (the month before the rental's next due date), unpaid, for every rental the
 * caller's query yields, in one statement: a large load of existing tenancies (the scale seed) whose earlier periods
 * are paid. Each is the charge billing would have posted, with its charge key (`periodChargeKey`), so no business
 * day bills it again; the ledger's trigger adds it to the balance and makes it the oldest open charge.
 */
export async function postCurrentRentInBulk<Values extends readonly unknown[]>(
  db: Queryable,
  rentals: Sql<RentalOwingCurrentPeriod, Values>,
  values: Values,
): Promise<void> {
  await query(
    db,
    sql<
      never,
      Values
    >(`INSERT INTO rental_ledger_entries (rental_record_uuid, kind, description, amount_in_pennies, posted_on, due_on, period_from, period_to, charge_key)
     SELECT r.uuid, 'RENT', 'Rent ' || p.due || ' to ' || (r.next_due_date - 1), r.rent_in_pennies, p.due, p.due, p.due, r.next_due_date,
            'RENT:-:' || p.due /* periodChargeKey */
       FROM (${rentals.text}) AS o JOIN rental_records r ON r.uuid = o.rental_record_uuid
      CROSS JOIN LATERAL (SELECT (r.next_due_date - interval '1 month')::date AS due) AS p`),
    values,
  );
}
