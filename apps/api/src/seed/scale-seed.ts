import type { DataSource } from 'typeorm';
import { COVERAGE_PROVIDERS, PRIVATE_COVERAGE_UUID } from '@storage/domain';
import { query, sql } from '@storage/persistence';

export interface ScaleSeedOptions {
  portfolioId: string;
  facilities: number;
  rentals: number;
  log: (line: string) => void;
}

/** Share of units rented: units = rentals / occupancy, so every facility keeps vacant units to lease. */
const OCCUPANCY = 0.85;
/** Facilities per transaction: small enough for steady progress output, large enough to keep statements few. */
const FACILITIES_PER_BATCH = 5;
const PARALLEL_BATCHES = 4;

/** `type` is the unit type's place in alphabetical order: 0 Climate Controlled, 1 Drive-Up, 2 Standard Indoor, 3 Vehicle Parking. */
const SIZES: { width: number; length: number; height: number; type: number; rate: number }[] = [
  { width: 5, length: 5, height: 8, type: 2, rate: 4900 },
  { width: 5, length: 10, height: 8, type: 0, rate: 7900 },
  { width: 10, length: 10, height: 8, type: 0, rate: 12900 },
  { width: 10, length: 15, height: 10, type: 1, rate: 15900 },
  { width: 10, length: 20, height: 10, type: 1, rate: 19900 },
  { width: 12, length: 35, height: 14, type: 3, rate: 11900 },
];
const TIERS = 2;
const GROUPS_PER_FACILITY = SIZES.length * TIERS;
const VEHICLE_PARKING = 3;
const VEHICLES = `(VALUES (0, 'RV', 'Winnebago', 'View 24D'), (1, 'Boat', 'Bayliner', 'VR5'), (2, 'Car', 'Ford', 'Mustang'), (3, 'Trailer', 'Airstream', 'Basecamp'))
  AS v(idx, type, make, model)`;

/**
 * A large portfolio for benchmarks, written by set-based SQL (generate_series) so a million rentals
 * take a minute or so: facilities, unit groups, units, persons, rentals and gate codes, vehicles, coverage
 * options and the tenants' coverage history, and promotions. Rentals are spread evenly over the facilities.
 */
export async function seedScale(dataSource: DataSource, options: ScaleSeedOptions): Promise<void> {
  const { facilities, rentals, portfolioId, log } = options;
  const started = Date.now();
  const existing = await query(dataSource, sql<unknown>('SELECT 1 FROM portfolios WHERE portfolio_id = $1'), [portfolioId]);
  if (existing.length > 0) throw new Error(`Portfolio "${portfolioId}" exists already; choose another with --portfolio`);

  const [{ uuid: portfolioUuid }] = await query(
    dataSource,
    sql<{ uuid: string }>('INSERT INTO portfolios (portfolio_id, name) VALUES ($1, $2) RETURNING uuid'),
    [portfolioId, `Scale test (${facilities} facilities, ${rentals} rentals)`],
  );
  await query(
    dataSource,
    sql(`INSERT INTO unit_types (portfolio_uuid, description) SELECT $1, d FROM unnest($2::text[]) WITH ORDINALITY AS t(d, n) ORDER BY n`),
    [portfolioUuid, ['Climate Controlled', 'Drive-Up', 'Standard Indoor', 'Vehicle Parking']],
  );
  await query(
    dataSource,
    sql(
      `INSERT INTO amenities (portfolio_uuid, description, is_smart_amenity) VALUES ($1, 'Climate controlled', false), ($1, 'Drive-up access', false), ($1, 'Smart lock', true)`,
    ),
    [portfolioUuid],
  );
  await query(dataSource, sql(`INSERT INTO rate_plans (portfolio_uuid, name, occupancy_bands) VALUES ($1, 'Occupancy based', $2)`), [
    portfolioUuid,
    JSON.stringify([
      { minOccupancyPercent: 0, maxOccupancyPercent: 50, streetAdjustmentPercent: -5, webAdjustmentPercent: -10 },
      { minOccupancyPercent: 50, maxOccupancyPercent: 100, streetAdjustmentPercent: 5, webAdjustmentPercent: 0 },
    ]),
  ]);
  await query(
    dataSource,
    sql(`INSERT INTO item_types (portfolio_uuid, name, kind, price_in_pennies, is_recurring)
     SELECT $1::uuid, 'Disc lock rental', 'SERVICE'::item_type_kind, 500, true UNION ALL
     SELECT $1::uuid, 'Coverage premium (' || p || ')', 'COVERAGE'::item_type_kind, 0, true FROM unnest($2::text[]) AS p`),
    [portfolioUuid, [...COVERAGE_PROVIDERS]],
  );
  await query(
    dataSource,
    sql(`INSERT INTO lead_sources (portfolio_uuid, description) SELECT $1, d FROM unnest(ARRAY['Website', 'Walk-in', 'Phone call']) AS d`),
    [portfolioUuid],
  );

  const batches: { first: number; last: number }[] = [];
  for (let first = 1; first <= facilities; first += FACILITIES_PER_BATCH) batches.push({ first, last: Math.min(first + FACILITIES_PER_BATCH - 1, facilities) });
  let facilitiesDone = 0;
  let rentalsDone = 0;
  // A few batches at once: PostgreSQL spends most of the time maintaining indexes, which parallel writers share well.
  const worker = async (): Promise<void> => {
    for (let batch = batches.shift(); batch !== undefined; batch = batches.shift()) {
      const { first, last } = batch;
      await dataSource.transaction(async (db) => {
        await query(db, sql('SET LOCAL synchronous_commit = off'));
        for (const statement of batchStatements({ portfolioUuid, first, last, facilities, rentals })) await query(db, sql(statement));
      });
      facilitiesDone += last - first + 1;
      rentalsDone += rentalsOfFacilities(first, last, facilities, rentals);
      const seconds = (Date.now() - started) / 1000;
      log(
        `facilities ${facilitiesDone}/${facilities}, rentals ${rentalsDone}/${rentals} (${seconds.toFixed(1)} s, ${Math.round(rentalsDone / Math.max(seconds, 0.001))} rentals/s)`,
      );
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_BATCHES }, worker));
  // VACUUM sets the visibility map, so operation 7's index-only scans read no heap page from the start.
  await query(dataSource, sql('VACUUM (ANALYZE)'));
  log(`Seeded portfolio "${portfolioId}" in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

/** Rentals of facilities first..last: an even share each, the remainder to the first ones. */
function rentalsOfFacilities(first: number, last: number, facilities: number, rentals: number): number {
  let total = 0;
  for (let seq = first; seq <= last; seq++) total += Math.floor(rentals / facilities) + (seq <= rentals % facilities ? 1 : 0);
  return total;
}

interface Batch {
  portfolioUuid: string;
  first: number;
  last: number;
  facilities: number;
  rentals: number;
}

/**
 * Facilities `first` to `last` as (uuid, seq): a facility's uuid derives from its number, which ties the
 * statements of a batch together. Values are inlined: integers checked by the CLI and a uuid from the database.
 */
function scaleFacilities(b: Batch): string {
  return `(SELECT md5('${b.portfolioUuid}:' || i)::uuid AS uuid, i AS seq FROM generate_series(${b.first}, ${b.last}) AS i) AS f`;
}

/** SQL for the first billing day (1 to 28) strictly after the date `day`: this month's when still ahead, else next month's. */
function nextBillingDay(day: string, billingDay: string): string {
  return `(date_trunc('month', ${day}) + ((${billingDay} - 1) || ' days')::interval
           + CASE WHEN ${billingDay} > extract(day FROM ${day}) THEN interval '0 months' ELSE interval '1 month' END)::date`;
}

/**
 * One batch of facilities with their share of the rentals. Every id derives from the facility and a
 * number (md5), so units, rentals, persons, gate codes, vehicles, coverages and enrollments are computed
 * straight from generate_series, without looking anything up.
 */
function batchStatements(b: Batch): string[] {
  const facilities = scaleFacilities(b);
  const rentalsOf = `(${Math.floor(b.rentals / b.facilities)} + CASE WHEN f.seq <= ${b.rentals % b.facilities} THEN 1 ELSE 0 END)`;
  const unitsOf = `greatest(${GROUPS_PER_FACILITY}, ceil(${rentalsOf} / ${OCCUPANCY})::int)`;
  const sizes = `(VALUES ${SIZES.map((z, i) => `(${i}, ${z.width}, ${z.length}, ${z.height}, ${z.type}, ${z.rate})`).join(', ')}) AS z(idx, width, length, height, type, rate)`;
  const zones = `(ARRAY['America/New_York', 'America/Chicago', 'America/Denver', 'America/Phoenix', 'America/Los_Angeles'])`;
  const id = (kind: string, ...parts: string[]) => `md5(f.uuid || ':${kind}:' || ${parts.join(` || ':' || `)})::uuid`;
  // Unit n belongs to unit group n mod groups: size (n mod groups) / tiers, tier (n mod tiers) + 1.
  const unitsOfBatch = (count: string) => `${facilities} CROSS JOIN LATERAL generate_series(1, ${count}) AS n
     JOIN ${sizes} ON z.idx = (n % ${GROUPS_PER_FACILITY}) / ${TIERS}`;
  const groupOfUnit = id('group', 'z.idx', `(n % ${TIERS} + 1)`);
  const tierOfUnit = `(n % ${TIERS} + 1)`;
  const tenants = `${facilities} CROSS JOIN LATERAL generate_series(1, ${rentalsOf}) AS n`;
  return [
    `INSERT INTO facilities (uuid, portfolio_uuid, name, address_line1, city, state, zip, phone, operating_hours, time_zone)
     SELECT f.uuid, '${b.portfolioUuid}', 'Facility ' || f.seq, f.seq || ' Industrial Way', 'Springfield', 'IL', lpad((10000 + f.seq)::text, 5, '0'), '(555) 555-' || lpad((f.seq % 10000)::text, 4, '0'),
            '{"monday":{"open":"08:00","close":"18:00"},"tuesday":{"open":"08:00","close":"18:00"},"wednesday":{"open":"08:00","close":"18:00"},"thursday":{"open":"08:00","close":"18:00"},"friday":{"open":"08:00","close":"18:00"},"saturday":{"open":"09:00","close":"16:00"},"sunday":null}',
            ${zones}[1 + f.seq % 5]
     FROM ${facilities}`,
    `INSERT INTO size_and_type_groups (uuid, facility_uuid, unit_type_uuid, length, width, height)
     SELECT ${id('size', 'z.idx')}, f.uuid, (SELECT uuid FROM unit_types WHERE portfolio_uuid = '${b.portfolioUuid}' ORDER BY description OFFSET z.type LIMIT 1), z.length, z.width, z.height
     FROM ${facilities} CROSS JOIN ${sizes}`,
    `INSERT INTO unit_groups (uuid, facility_uuid, size_and_type_group_uuid, description, tier_level, rate_plan_uuid,
                              base_street_rate_in_pennies, base_web_rate_in_pennies, current_street_rate_in_pennies, current_web_rate_in_pennies)
     SELECT ${id('group', 'z.idx', 't')}, f.uuid, ${id('size', 'z.idx')}, z.width || 'x' || z.length || ' tier ' || t, t, (SELECT uuid FROM rate_plans WHERE portfolio_uuid = '${b.portfolioUuid}'),
            z.rate + (t - 1) * 1000, z.rate + (t - 1) * 1000 - 500, z.rate + (t - 1) * 1000, z.rate + (t - 1) * 1000 - 500
     FROM ${facilities} CROSS JOIN ${sizes} CROSS JOIN generate_series(1, ${TIERS}) AS t`,
    `INSERT INTO unit_group_amenities (unit_group_uuid, amenity_uuid)
     SELECT g.uuid, a.uuid FROM unit_groups g JOIN ${facilities} ON f.uuid = g.facility_uuid
     JOIN amenities a ON a.portfolio_uuid = '${b.portfolioUuid}' AND (a.description <> 'Smart lock' OR g.tier_level = 2)`,
    // The first (rentals of the facility) units are occupied.
    `INSERT INTO units (uuid, facility_uuid, unit_group_uuid, name, floor, status)
     SELECT ${id('unit', 'n')}, f.uuid, ${groupOfUnit}, lpad(n::text, 5, '0'), (1 + n % 3)::text,
            CASE WHEN n <= ${rentalsOf} THEN 'occupied' ELSE 'vacant' END::unit_status
     FROM ${unitsOfBatch(unitsOf)}`,
    `INSERT INTO persons (uuid, portfolio_uuid, first_name, last_name, email, phone)
     SELECT ${id('person', 'n')}, '${b.portfolioUuid}', 'Tenant', n || '-' || f.seq, 'tenant.' || f.seq || '.' || n || '@example.com', '555' || lpad((n % 10000000)::text, 7, '0')
     FROM ${tenants}`,
    // Rentals began a month to two years ago, billed on their start day (capped at 28); the period under way is
    // billed (its next due date is the billing day after today). Paid periods leave nothing on the ledger; every
    // tenth tenant owes the period under way, an unpaid charge as billing posts it (its charge key, so a business
    // day never bills it again), which the ledger's trigger adds to the balance: the scheduler has work at scale too.
    `INSERT INTO rental_records (uuid, portfolio_uuid, facility_uuid, unit_uuid, unit_group_uuid, person_uuid, rent_in_pennies,
                                 billing_day_of_month, next_due_date, start_date)
     SELECT ${id('rental', 'n')}, '${b.portfolioUuid}', f.uuid, ${id('unit', 'n')}, ${groupOfUnit}, ${id('person', 'n')}, z.rate + (${tierOfUnit} - 1) * 1000,
            s.billing_day, ${nextBillingDay('current_date', 's.billing_day')}, s.start_date
     FROM ${unitsOfBatch(rentalsOf)}
     CROSS JOIN LATERAL (SELECT current_date - 31 - n % 700 AS start_date) AS st
     CROSS JOIN LATERAL (SELECT st.start_date, least(extract(day FROM st.start_date)::int, 28) AS billing_day) AS s`,
    `INSERT INTO rental_ledger_entries (rental_record_uuid, kind, description, amount_in_pennies, posted_on, due_on, period_from, period_to, charge_key)
     SELECT r.uuid, 'RENT', 'Rent ' || p.due || ' to ' || (r.next_due_date - 1), r.rent_in_pennies, p.due, p.due, p.due, r.next_due_date, 'RENT:-:' || p.due /* periodChargeKey of @storage/rental-ledger */
       FROM ${tenants} JOIN rental_records r ON r.uuid = ${id('rental', 'n')}
      CROSS JOIN LATERAL (SELECT (r.next_due_date - interval '1 month')::date AS due) AS p
      WHERE n % 10 = 0`,
    `INSERT INTO gate_codes (facility_uuid, rental_record_uuid, code)
     SELECT f.uuid, ${id('rental', 'n')}, lpad(n::text, 6, '0') FROM ${tenants}`,
    // Every tenant of a parking space has a vehicle on file, and every tenth other tenant too.
    `INSERT INTO vehicles (uuid, facility_uuid, rental_record_uuid, type, license_plate_number, make, model, vin)
     SELECT ${id('vehicle', 'n')}, f.uuid, ${id('rental', 'n')}, v.type, 'SC' || f.seq || '-' || n, v.make, v.model, upper(substr(md5(f.uuid || ':vin:' || n), 1, 17))
     FROM ${unitsOfBatch(rentalsOf)} JOIN ${VEHICLES} ON v.idx = n % 4
     WHERE z.type = ${VEHICLE_PARKING} OR n % 10 = 6`,
    // Coverage plan p of a facility has the uuid the enrollments below compute.
    `INSERT INTO coverages (uuid, facility_uuid, item_type_uuid, premium_in_pennies, coverage_amount_in_pennies, description, provider, allow_manual_changes, provider_description, is_default)
     SELECT ${id('coverage', 'p.n')}, f.uuid, it.uuid, 900 + p.n * 400, 200000 + p.n * 300000, 'Plan ' || p.n, p.provider::coverage_provider, p.provider = 'OTHER', p.provider || ' plan', p.n = 1
     FROM ${facilities} CROSS JOIN unnest(ARRAY[${COVERAGE_PROVIDERS.map((p) => `'${p}'`).join(', ')}]) WITH ORDINALITY AS p(provider, n)
     JOIN item_types it ON it.portfolio_uuid = '${b.portfolioUuid}' AND it.name = 'Coverage premium (' || p.provider || ')'`,
    coverageHistory(tenants, id),
    `INSERT INTO promotions (facility_uuid, name, discount_type, percentage, amount_in_pennies, duration_in_months, tenant_type, family, item_type_uuid)
     SELECT f.uuid, v.name, v.discount_type::promotion_discount_type, v.percentage, v.amount, v.months, v.tenant_type::promotion_tenant_type, v.family::promotion_family,
            CASE WHEN v.family = 'DISCOUNTED_SERVICE' THEN (SELECT uuid FROM item_types WHERE portfolio_uuid = '${b.portfolioUuid}' AND kind = 'SERVICE' LIMIT 1) END
     FROM ${facilities} CROSS JOIN (VALUES ('First month 50% off', 'PERCENTAGE', 50, NULL, 1, 'ALL', 'RENT'),
                                            ('$1 first month', 'FIXED_RATE', NULL, 100, 1, 'PERSONAL', 'RENT'),
                                            ('$25 off 3 months', 'AMOUNT_OFF', NULL, 2500, 3, 'BUSINESS', 'RENT'),
                                            ('Free lock', 'PERCENTAGE', 100, NULL, 1, 'ALL', 'DISCOUNTED_SERVICE'))
       AS v(name, discount_type, percentage, amount, months, tenant_type, family)`,
  ];
}

/**
 * Coverage history as in the demo: four tenants in five are covered by plan 1 + n % 5, one in six of them by
 * their own insurance (the private coverage, with a policy number); one in four changed plan halfway through
 * the rental, so it has an ended enrollment before the current one.
 */
function coverageHistory(tenants: string, id: (kind: string, ...parts: string[]) => string): string {
  return `INSERT INTO coverage_enrollments (uuid, facility_uuid, rental_record_uuid, coverage_uuid, premium_in_pennies, coverage_amount_in_pennies,
                                      start_date, end_date, partner_coverage_id)
     SELECT ${id('enrollment', 'n', 'e.seq')}, f.uuid, ${id('rental', 'n')},
            CASE WHEN e.own THEN '${PRIVATE_COVERAGE_UUID}'::uuid ELSE ${id('coverage', 'e.plan')} END,
            CASE WHEN e.own THEN 0 ELSE 900 + e.plan * 400 END, 200000 + e.plan * 300000,
            e.from_day::timestamp AT TIME ZONE 'UTC', e.to_day::timestamp AT TIME ZONE 'UTC',
            CASE WHEN e.own THEN 'POL-' || f.seq || '-' || n END
     FROM ${tenants}
     CROSS JOIN LATERAL (SELECT current_date - (n % 700) AS started, current_date - (n % 700) + (n % 700) / 2 AS switched_on, n % 4 = 3 AS switched,
                                1 + n % 5 AS plan, n % 6 = 0 AS own) AS t
     CROSS JOIN LATERAL (VALUES (1, CASE WHEN t.switched THEN 1 + (n + 1) % 5 ELSE t.plan END, t.own AND NOT t.switched, t.started,
                                 CASE WHEN t.switched THEN t.switched_on END),
                                (2, t.plan, t.own, t.switched_on, NULL::date)) AS e(seq, plan, own, from_day, to_day)
     WHERE n % 5 <> 2 AND (e.seq = 1 OR t.switched)`;
}
