import type { DataSource } from 'typeorm';
import { addDays, type CalendarDate } from '@storage/domain';
import { query, sql } from '@storage/persistence';

/**
 * Which rentals bill on the business date: on a typical day the billing days are spread over the month (1 to 28,
 * so a 28th of the rentals bill); on the worst day every rental bills.
 */
export type BillingSpread = 'typical' | 'worst';

/**
 * A scale dataset written by set-based SQL: `rentals` rentals over `facilities` facilities (every third with a
 * 12.00 service), a tenth of them delinquent and each due exactly one stage on `businessDate` (a quarter each
 * entering OVERDUE, OVERLOCK, LIEN and AUCTION, the last three with their delinquency at the stage before), and
 * the rentals whose billing day it is (`spread`) due to be billed: the heaviest steady days.
 */
export interface ScaleDataset {
  facilities: number;
  rentals: number;
  businessDate: CalendarDate;
  spread: BillingSpread;
  historyMonths: number;
}

export async function createScaleDataset(db: DataSource, options: ScaleDataset): Promise<void> {
  const { facilities, rentals, businessDate, historyMonths } = options;
  const billingDayOfToday = Number(businessDate.slice(8, 10));
  if (billingDayOfToday > 28) throw new RangeError(`A benchmark business date is a billing day (1 to 28), got ${businessDate}`);
  await query(db, sql(`INSERT INTO portfolios (uuid, portfolio_id, name) VALUES ('00000000-0000-4000-8000-000000000001', 'bench', 'Bench')`));
  await query(
    db,
    sql(
      `INSERT INTO unit_types (uuid, portfolio_uuid, description) VALUES ('00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001', 'Standard')`,
    ),
  );
  // Parents before the rows naming them: the foreign keys check every insert.
  await query(
    db,
    sql(
      `INSERT INTO rate_plans (uuid, portfolio_uuid, name, occupancy_bands) VALUES (bench_uuid('p', 0), '00000000-0000-4000-8000-000000000001', 'Flat', '[]')`,
    ),
  );
  await query(
    db,
    sql(`INSERT INTO item_types (uuid, portfolio_uuid, name, kind, price_in_pennies, fee_type)
     VALUES ('00000000-0000-4000-8000-000000000003', '00000000-0000-4000-8000-000000000001', 'Tenant protection', 'SERVICE', 1200, 'FIXED_AMOUNT')`),
  );
  await query(
    db,
    sql(`INSERT INTO facilities (uuid, portfolio_uuid, name, address_line1, city, state, zip, phone, operating_hours, time_zone)
     SELECT bench_uuid('f', i), '00000000-0000-4000-8000-000000000001', 'Facility ' || i, '1 Main St', 'Austin', 'TX', '78701', '5125550100', '{}', 'America/Chicago'
       FROM generate_series(1, $1) i`),
    [facilities],
  );
  await query(
    db,
    sql(`INSERT INTO size_and_type_groups (uuid, facility_uuid, unit_type_uuid, length, width, height)
     SELECT bench_uuid('s', i), bench_uuid('f', i), '00000000-0000-4000-8000-000000000002', 10, 10, 8 FROM generate_series(1, $1) i`),
    [facilities],
  );
  await query(
    db,
    sql(`INSERT INTO unit_groups (uuid, facility_uuid, size_and_type_group_uuid, description, rate_plan_uuid, base_street_rate_in_pennies,
                              base_web_rate_in_pennies, current_street_rate_in_pennies, current_web_rate_in_pennies)
     SELECT bench_uuid('g', i), bench_uuid('f', i), bench_uuid('s', i), '10x10', bench_uuid('p', 0), 10000, 9000, 10000, 9000
       FROM generate_series(1, $1) i`),
    [facilities],
  );
  await query(
    db,
    sql(`INSERT INTO units (uuid, facility_uuid, unit_group_uuid, name, status)
     SELECT bench_uuid('u', i), bench_uuid('f', 1 + i % $2), bench_uuid('g', 1 + i % $2), 'U' || i, 'occupied' FROM generate_series(1, $1) i`),
    [rentals, facilities],
  );
  await query(
    db,
    sql(`INSERT INTO persons (uuid, portfolio_uuid, first_name, last_name, email, phone)
     SELECT bench_uuid('t', i), '00000000-0000-4000-8000-000000000001', 'Tenant', 'No ' || i, 'tenant' || i || '@example.com', '5125550100'
       FROM generate_series(1, $1) i`),
    [rentals],
  );
  // Billed since January 2024 on their billing day: due today when it is today's, else later this month or next.
  await query(
    db,
    sql(`INSERT INTO rental_records (uuid, portfolio_uuid, facility_uuid, unit_uuid, unit_group_uuid, person_uuid, rent_in_pennies,
                                 billing_day_of_month, next_due_date, start_date)
     SELECT bench_uuid('r', i), '00000000-0000-4000-8000-000000000001', bench_uuid('f', 1 + i % $2), bench_uuid('u', i), bench_uuid('g', 1 + i % $2),
            bench_uuid('t', i), 10000, d.day,
            CASE WHEN d.day = $4 THEN $3::date
                 WHEN d.day > $4 THEN $3::date + (d.day - $4)
                 ELSE ($3::date + interval '1 month')::date + (d.day - $4) END,
            make_date(2024, 1, d.day)
       FROM generate_series(1, $1) i CROSS JOIN LATERAL (SELECT CASE WHEN $5 = 'worst' THEN $4 ELSE 1 + i % 28 END AS day) d`),
    [rentals, facilities, businessDate, billingDayOfToday, options.spread],
  );
  await query(
    db,
    sql(`INSERT INTO rental_services (rental_record_uuid, item_type_uuid, description, amount_in_pennies, fee_type, start_date)
     SELECT bench_uuid('r', i), '00000000-0000-4000-8000-000000000003', 'Tenant protection', 1200, 'FIXED_AMOUNT', '2024-01-01'
       FROM generate_series(3, $1, 3) i`),
    [rentals],
  );
  // Up to `historyMonths` paid months before, as a live ledger has them (rent, the service, the payment of both):
  // what a rental's ledger holds when it is billed again. They end two months before the period under way, so a
  // delinquent rental's unpaid rent below stays its newest charge, the one the ledger's trigger counts as open.
  await query(
    db,
    sql(`INSERT INTO rental_ledger_entries (rental_record_uuid, kind, description, amount_in_pennies, posted_on, due_on, period_from, period_to,
                                        item_type_uuid, payment_uuid, charge_key)
     SELECT r.uuid, e.kind::ledger_entry_kind, e.kind, e.amount, h.due, CASE WHEN e.amount > 0 THEN h.due END,
            CASE WHEN e.amount > 0 THEN h.due END, CASE WHEN e.amount > 0 THEN (h.due + interval '1 month')::date END,
            e.item_type_uuid, CASE WHEN e.amount < 0 THEN gen_random_uuid() END,
            CASE WHEN e.amount > 0 THEN e.kind || ':' || coalesce(e.item_type_uuid::text, '-') || ':' || h.due END
       FROM rental_records r
       LEFT JOIN rental_services s ON s.rental_record_uuid = r.uuid
      CROSS JOIN generate_series(3, $1 + 2) k
      CROSS JOIN LATERAL (SELECT (r.next_due_date - make_interval(months => k))::date AS due) h
      CROSS JOIN LATERAL (VALUES (1, 'RENT', r.rent_in_pennies, NULL::uuid),
                                 (2, 'SERVICE_FEE', s.amount_in_pennies, s.item_type_uuid),
                                 (3, 'PAYMENT', -(r.rent_in_pennies + coalesce(s.amount_in_pennies, 0)), NULL::uuid)) AS e(n, kind, amount, item_type_uuid)
      WHERE h.due >= r.start_date AND e.amount IS NOT NULL
      ORDER BY h.due, r.uuid, e.n`),
    [historyMonths],
  );
  // Every tenth rental is delinquent: it owes rent due so many days ago that today brings its next stage, its quarter
  // (i / 10 % 4) saying which (the ledger's trigger sets the balance and the oldest open charge).
  await query(
    db,
    sql(`INSERT INTO rental_ledger_entries (rental_record_uuid, kind, description, amount_in_pennies, posted_on, due_on)
     SELECT bench_uuid('r', i), 'RENT', 'Rent', 10000, d.due, d.due
       FROM generate_series(10, $1, 10) i CROSS JOIN LATERAL (SELECT $2::date - (ARRAY[6, 10, 30, 60])[1 + (i / 10) % 4] AS due) d`),
    [rentals, businessDate],
  );
  await query(
    db,
    sql(`INSERT INTO delinquencies (rental_record_uuid, facility_uuid, delinquency_uuid, status, past_due_since, status_changed_on)
     SELECT bench_uuid('r', i), bench_uuid('f', 1 + i % $2), bench_uuid('d', i),
            ((ARRAY['OVERDUE', 'OVERLOCK', 'LIEN'])[(i / 10) % 4])::rental_delinquency_status,
            $3::date - (ARRAY[6, 10, 30, 60])[1 + (i / 10) % 4], $4::date
       FROM generate_series(10, $1, 10) i WHERE (i / 10) % 4 <> 0`),
    [rentals, facilities, businessDate, addDays(businessDate, -1)],
  );
  // A live database's tables have long been vacuumed (visibility map, hint bits) and analysed by autovacuum.
  await query(db, sql('VACUUM ANALYZE'));
}

/** Deterministic uuids from a kind and a number, so related rows can name each other without lookups. */
export const BENCH_UUID_FUNCTION = sql(`
CREATE OR REPLACE FUNCTION bench_uuid(kind text, n bigint) RETURNS uuid LANGUAGE sql IMMUTABLE AS $$
  SELECT (substr(md5(kind || ':' || n), 1, 8) || '-' || substr(md5(kind || ':' || n), 9, 4) || '-4' || substr(md5(kind || ':' || n), 14, 3)
          || '-8' || substr(md5(kind || ':' || n), 18, 3) || '-' || substr(md5(kind || ':' || n), 21, 12))::uuid
$$`);
