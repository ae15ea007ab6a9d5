import type { DataSource } from 'typeorm';
import { addDays, type CalendarDate } from '@storage/domain';

/**
 * A scale dataset written by set-based SQL: `rentals` rentals over `facilities` facilities, a tenth of them
 * delinquent and each due exactly one stage on `businessDate` (a quarter each entering OVERDUE, OVERLOCK,
 * LIEN and AUCTION, the last three with their delinquency at the stage before): the heaviest steady day.
 */
export async function createScaleDataset(db: DataSource, options: { facilities: number; rentals: number; businessDate: CalendarDate }): Promise<void> {
  const { facilities, rentals, businessDate } = options;
  await db.query(`INSERT INTO portfolios (uuid, portfolio_id, name) VALUES ('00000000-0000-4000-8000-000000000001', 'bench', 'Bench')`);
  await db.query(`INSERT INTO unit_types (uuid, portfolio_uuid, description) VALUES ('00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001', 'Standard')`);
  await db.query(
    `INSERT INTO facilities (uuid, portfolio_uuid, name, address_line1, city, state, zip, phone, operating_hours, time_zone)
     SELECT bench_uuid('f', i), '00000000-0000-4000-8000-000000000001', 'Facility ' || i, '1 Main St', 'Austin', 'TX', '78701', '5125550100', '{}', 'America/Chicago'
       FROM generate_series(1, $1) i`,
    [facilities],
  );
  await db.query(
    `INSERT INTO size_and_type_groups (uuid, facility_uuid, unit_type_uuid, length, width, height)
     SELECT bench_uuid('s', i), bench_uuid('f', i), '00000000-0000-4000-8000-000000000002', 10, 10, 8 FROM generate_series(1, $1) i`,
    [facilities],
  );
  await db.query(
    `INSERT INTO unit_groups (uuid, facility_uuid, size_and_type_group_uuid, description, rate_plan_uuid, base_street_rate_in_pennies,
                              base_web_rate_in_pennies, current_street_rate_in_pennies, current_web_rate_in_pennies)
     SELECT bench_uuid('g', i), bench_uuid('f', i), bench_uuid('s', i), '10x10', bench_uuid('p', 0), 10000, 9000, 10000, 9000
       FROM generate_series(1, $1) i`,
    [facilities],
  );
  await db.query(
    `INSERT INTO units (uuid, facility_uuid, unit_group_uuid, name, status)
     SELECT bench_uuid('u', i), bench_uuid('f', 1 + i % $2), bench_uuid('g', 1 + i % $2), 'U' || i, 'occupied' FROM generate_series(1, $1) i`,
    [rentals, facilities],
  );
  await db.query(
    `INSERT INTO persons (uuid, portfolio_uuid, first_name, last_name, email, phone)
     SELECT bench_uuid('t', i), '00000000-0000-4000-8000-000000000001', 'Tenant', 'No ' || i, 'tenant' || i || '@example.com', '5125550100'
       FROM generate_series(1, $1) i`,
    [rentals],
  );
  // Every tenth rental is delinquent; its quarter (i / 10 % 4) says which stage today brings.
  await db.query(
    `INSERT INTO rental_records (uuid, portfolio_uuid, facility_uuid, unit_uuid, unit_group_uuid, person_uuid, rent_in_pennies,
                                 billing_day_of_month, next_due_date, start_date)
     SELECT bench_uuid('r', i), '00000000-0000-4000-8000-000000000001', bench_uuid('f', 1 + i % $2), bench_uuid('u', i), bench_uuid('g', 1 + i % $2),
            bench_uuid('t', i), 10000, 1,
            CASE WHEN i % 10 <> 0 THEN $3::date + 1 + i % 27
                 ELSE $3::date - (ARRAY[6, 10, 30, 60])[1 + (i / 10) % 4] END,
            '2024-01-01'
       FROM generate_series(1, $1) i`,
    [rentals, facilities, businessDate],
  );
  // What a delinquent rental owes: its unpaid rent, due on its next due date (the ledger's trigger sets the balance).
  await db.query(
    `INSERT INTO rental_ledger_entries (rental_record_uuid, kind, description, amount_in_pennies, posted_on, due_on)
     SELECT uuid, 'RENT', 'Rent', rent_in_pennies, next_due_date, next_due_date FROM rental_records
      WHERE uuid IN (SELECT bench_uuid('r', i) FROM generate_series(10, $1, 10) i)`,
    [rentals],
  );
  await db.query(
    `INSERT INTO delinquencies (rental_record_uuid, facility_uuid, delinquency_uuid, status, past_due_since, status_changed_on)
     SELECT bench_uuid('r', i), bench_uuid('f', 1 + i % $2), bench_uuid('d', i),
            ((ARRAY['OVERDUE', 'OVERLOCK', 'LIEN'])[(i / 10) % 4])::rental_delinquency_status,
            $3::date - (ARRAY[6, 10, 30, 60])[1 + (i / 10) % 4], $4::date
       FROM generate_series(10, $1, 10) i WHERE (i / 10) % 4 <> 0`,
    [rentals, facilities, businessDate, addDays(businessDate, -1)],
  );
  // A live database's tables have long been vacuumed (visibility map, hint bits) and analysed by autovacuum.
  await db.query('VACUUM ANALYZE');
}

/** Deterministic uuids from a kind and a number, so related rows can name each other without lookups. */
export const BENCH_UUID_FUNCTION = `
CREATE OR REPLACE FUNCTION bench_uuid(kind text, n bigint) RETURNS uuid LANGUAGE sql IMMUTABLE AS $$
  SELECT (substr(md5(kind || ':' || n), 1, 8) || '-' || substr(md5(kind || ':' || n), 9, 4) || '-4' || substr(md5(kind || ':' || n), 14, 3)
          || '-8' || substr(md5(kind || ':' || n), 18, 3) || '-' || substr(md5(kind || ':' || n), 21, 12))::uuid
$$`;
