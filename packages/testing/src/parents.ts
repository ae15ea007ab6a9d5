import { randomUUID } from 'node:crypto';
import { query, sql, type Queryable } from '@storage/persistence';

/** A rate plan's band: the adjustments of its rates while the unit group's occupancy is in the range. */
export interface OccupancyBand {
  minOccupancyPercent: number;
  maxOccupancyPercent: number;
  streetAdjustmentPercent: number;
  webAdjustmentPercent: number;
}

/** The rows a rental (and its services, promotions, coverage) refers to, all of one portfolio. */
export interface RentalParents {
  portfolioUuid: string;
  portfolioId: string;
  facilityUuid: string;
  unitTypeUuid: string;
  sizeAndTypeGroupUuid: string;
  ratePlanUuid: string;
  unitGroupUuid: string;
  unitUuid: string;
  personUuid: string;
  itemTypeUuid: string;
  promotionUuid: string;
  coverageUuid: string;
}

/**
 * Inserts a portfolio with one of each row a rental refers to, parents first, so tests that need a rental but not
 * its surroundings satisfy the foreign keys. Rentals may share the unit and the person: nothing makes them unique.
 * `uuids` picks given ids (a test's fixed item type), the rest are random; `occupancyBands` the rate plan's bands
 * (none: a flat plan), for tests of the rates occupancy sets.
 */
export async function insertRentalParents(
  db: Queryable,
  uuids: Partial<RentalParents> = {},
  { occupancyBands = [] }: { occupancyBands?: readonly OccupancyBand[] } = {},
): Promise<RentalParents> {
  const p: RentalParents = {
    portfolioUuid: randomUUID(),
    portfolioId: `pf-${randomUUID().slice(0, 8)}`,
    facilityUuid: randomUUID(),
    unitTypeUuid: randomUUID(),
    sizeAndTypeGroupUuid: randomUUID(),
    ratePlanUuid: randomUUID(),
    unitGroupUuid: randomUUID(),
    unitUuid: randomUUID(),
    personUuid: randomUUID(),
    itemTypeUuid: randomUUID(),
    promotionUuid: randomUUID(),
    coverageUuid: randomUUID(),
    ...uuids,
  };
  // In the order of their foreign keys.
  await query(db, sql<never, [string, string, string]>('INSERT INTO portfolios (uuid, portfolio_id, name) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING'), [
    p.portfolioUuid,
    p.portfolioId,
    'Test portfolio',
  ]);
  await query(
    db,
    sql<never, [string, string]>(`INSERT INTO facilities (uuid, portfolio_uuid, name, address_line1, city, state, zip, phone, operating_hours, time_zone)
       VALUES ($1, $2, 'Test facility', '1 Main St', 'Austin', 'TX', '78701', '5125550100', '{}', 'America/Chicago')`),
    [p.facilityUuid, p.portfolioUuid],
  );
  await query(db, sql<never, [string, string]>(`INSERT INTO unit_types (uuid, portfolio_uuid, description) VALUES ($1, $2, 'Standard')`), [
    p.unitTypeUuid,
    p.portfolioUuid,
  ]);
  await query(
    db,
    sql<never, [string, string, string]>(
      `INSERT INTO size_and_type_groups (uuid, facility_uuid, unit_type_uuid, length, width, height) VALUES ($1, $2, $3, 10, 10, 8)`,
    ),
    [p.sizeAndTypeGroupUuid, p.facilityUuid, p.unitTypeUuid],
  );
  await query(
    db,
    sql<never, [string, string, string]>(`INSERT INTO rate_plans (uuid, portfolio_uuid, name, occupancy_bands) VALUES ($1, $2, 'Test plan', $3)`),
    [p.ratePlanUuid, p.portfolioUuid, JSON.stringify(occupancyBands)],
  );
  await query(
    db,
    sql<
      never,
      [string, string, string, string]
    >(`INSERT INTO unit_groups (uuid, facility_uuid, size_and_type_group_uuid, description, rate_plan_uuid, base_street_rate_in_pennies,
                                base_web_rate_in_pennies, current_street_rate_in_pennies, current_web_rate_in_pennies)
       VALUES ($1, $2, $3, '10x10', $4, 10000, 10000, 10000, 10000)`),
    [p.unitGroupUuid, p.facilityUuid, p.sizeAndTypeGroupUuid, p.ratePlanUuid],
  );
  await query(
    db,
    sql<never, [string, string, string]>(`INSERT INTO units (uuid, facility_uuid, unit_group_uuid, name, status) VALUES ($1, $2, $3, 'T-1', 'occupied')`),
    [p.unitUuid, p.facilityUuid, p.unitGroupUuid],
  );
  await query(
    db,
    sql<never, [string, string]>(
      `INSERT INTO persons (uuid, portfolio_uuid, first_name, last_name, email, phone, is_sms_enrolled) VALUES ($1, $2, 'Test', 'Tenant', 'tenant@example.com', '5125550101', false)`,
    ),
    [p.personUuid, p.portfolioUuid],
  );
  await query(
    db,
    sql<never, [string, string]>(
      `INSERT INTO item_types (uuid, portfolio_uuid, name, kind, price_in_pennies, fee_type) VALUES ($1, $2, 'Lock', 'SERVICE', 1500, 'FIXED_AMOUNT')`,
    ),
    [p.itemTypeUuid, p.portfolioUuid],
  );
  await query(
    db,
    sql<never, [string, string]>(`INSERT INTO promotions (uuid, facility_uuid, name, discount_type, percentage) VALUES ($1, $2, 'Half off', 'PERCENTAGE', 50)`),
    [p.promotionUuid, p.facilityUuid],
  );
  await query(
    db,
    sql<
      never,
      [string, string, string]
    >(`INSERT INTO coverages (uuid, facility_uuid, item_type_uuid, premium_in_pennies, coverage_amount_in_pennies, description, provider)
       VALUES ($1, $2, $3, 900, 200000, 'Protection', 'OTHER')`),
    [p.coverageUuid, p.facilityUuid, p.itemTypeUuid],
  );
  return p;
}
