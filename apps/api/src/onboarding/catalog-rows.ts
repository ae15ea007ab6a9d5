import type { OccupancyBand } from '@storage/domain';
import { sql, upsertOwned, type OwnedUpsert, type Queryable, type UpsertOutcome } from '@storage/persistence';
import type { FeeType, ItemTypeKind } from '../model/item-type.entity';

/**
 * The writes of a portfolio's catalog, one typed upsert per table (`upsertOwned` of `@storage/persistence`): each
 * creates the row of the caller's uuid under its portfolio, or brings it to the values given, and says which.
 */

export interface UnitTypeRow {
  description: string;
}

const UNIT_TYPE: OwnedUpsert<[uuid: string, portfolioUuid: string, description: string]> = {
  write: sql(`INSERT INTO unit_types AS t (uuid, portfolio_uuid, description) VALUES ($1, $2, $3)
     ON CONFLICT (uuid) DO UPDATE SET description = EXCLUDED.description
      WHERE t.portfolio_uuid = EXCLUDED.portfolio_uuid AND t.description IS DISTINCT FROM EXCLUDED.description
     RETURNING (xmax = 0) AS inserted`),
  owned: sql('SELECT portfolio_uuid = $2 AS owned FROM unit_types WHERE uuid = $1'),
};

export function upsertUnitType(db: Queryable, portfolioUuid: string, uuid: string, row: UnitTypeRow): Promise<UpsertOutcome> {
  return upsertOwned(db, UNIT_TYPE, [uuid, portfolioUuid, row.description]);
}

export interface AmenityRow {
  description: string;
  isSmartAmenity: boolean;
}

const AMENITY: OwnedUpsert<[uuid: string, portfolioUuid: string, description: string, isSmartAmenity: boolean]> = {
  write: sql(`INSERT INTO amenities AS t (uuid, portfolio_uuid, description, is_smart_amenity) VALUES ($1, $2, $3, $4)
     ON CONFLICT (uuid) DO UPDATE SET description = EXCLUDED.description, is_smart_amenity = EXCLUDED.is_smart_amenity
      WHERE t.portfolio_uuid = EXCLUDED.portfolio_uuid
        AND ROW(t.description, t.is_smart_amenity) IS DISTINCT FROM ROW(EXCLUDED.description, EXCLUDED.is_smart_amenity)
     RETURNING (xmax = 0) AS inserted`),
  owned: sql('SELECT portfolio_uuid = $2 AS owned FROM amenities WHERE uuid = $1'),
};

export function upsertAmenity(db: Queryable, portfolioUuid: string, uuid: string, row: AmenityRow): Promise<UpsertOutcome> {
  return upsertOwned(db, AMENITY, [uuid, portfolioUuid, row.description, row.isSmartAmenity]);
}

/** A lead source, and a lead marketing source: a description each. */
export interface LeadSourceRow {
  description: string;
}

const LEAD_SOURCE: OwnedUpsert<[uuid: string, portfolioUuid: string, description: string]> = {
  write: sql(`INSERT INTO lead_sources AS t (uuid, portfolio_uuid, description) VALUES ($1, $2, $3)
     ON CONFLICT (uuid) DO UPDATE SET description = EXCLUDED.description
      WHERE t.portfolio_uuid = EXCLUDED.portfolio_uuid AND t.description IS DISTINCT FROM EXCLUDED.description
     RETURNING (xmax = 0) AS inserted`),
  owned: sql('SELECT portfolio_uuid = $2 AS owned FROM lead_sources WHERE uuid = $1'),
};

export function upsertLeadSource(db: Queryable, portfolioUuid: string, uuid: string, row: LeadSourceRow): Promise<UpsertOutcome> {
  return upsertOwned(db, LEAD_SOURCE, [uuid, portfolioUuid, row.description]);
}

const LEAD_MARKETING_SOURCE: OwnedUpsert<[uuid: string, portfolioUuid: string, description: string]> = {
  write: sql(`INSERT INTO lead_marketing_sources AS t (uuid, portfolio_uuid, description) VALUES ($1, $2, $3)
     ON CONFLICT (uuid) DO UPDATE SET description = EXCLUDED.description
      WHERE t.portfolio_uuid = EXCLUDED.portfolio_uuid AND t.description IS DISTINCT FROM EXCLUDED.description
     RETURNING (xmax = 0) AS inserted`),
  owned: sql('SELECT portfolio_uuid = $2 AS owned FROM lead_marketing_sources WHERE uuid = $1'),
};

export function upsertLeadMarketingSource(db: Queryable, portfolioUuid: string, uuid: string, row: LeadSourceRow): Promise<UpsertOutcome> {
  return upsertOwned(db, LEAD_MARKETING_SOURCE, [uuid, portfolioUuid, row.description]);
}

export interface ItemTypeRow {
  name: string;
  kind: ItemTypeKind;
  priceInPennies: number;
  feeType: FeeType;
  isRecurring: boolean;
}

type ItemTypeValues = [uuid: string, portfolioUuid: string, name: string, kind: ItemTypeKind, priceInPennies: number, feeType: FeeType, isRecurring: boolean];

const ITEM_TYPE: OwnedUpsert<ItemTypeValues> = {
  write: sql(`INSERT INTO item_types AS t (uuid, portfolio_uuid, name, kind, price_in_pennies, fee_type, is_recurring) VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (uuid) DO UPDATE SET name = EXCLUDED.name, kind = EXCLUDED.kind, price_in_pennies = EXCLUDED.price_in_pennies,
       fee_type = EXCLUDED.fee_type, is_recurring = EXCLUDED.is_recurring
      WHERE t.portfolio_uuid = EXCLUDED.portfolio_uuid
        AND ROW(t.name, t.kind, t.price_in_pennies, t.fee_type, t.is_recurring)
        IS DISTINCT FROM ROW(EXCLUDED.name, EXCLUDED.kind, EXCLUDED.price_in_pennies, EXCLUDED.fee_type, EXCLUDED.is_recurring)
     RETURNING (xmax = 0) AS inserted`),
  owned: sql('SELECT portfolio_uuid = $2 AS owned FROM item_types WHERE uuid = $1'),
};

export function upsertItemType(db: Queryable, portfolioUuid: string, uuid: string, row: ItemTypeRow): Promise<UpsertOutcome> {
  return upsertOwned(db, ITEM_TYPE, [uuid, portfolioUuid, row.name, row.kind, row.priceInPennies, row.feeType, row.isRecurring]);
}

export interface RatePlanRow {
  name: string;
  occupancyBands: readonly OccupancyBand[];
}

const RATE_PLAN: OwnedUpsert<[uuid: string, portfolioUuid: string, name: string, occupancyBands: string]> = {
  write: sql(`INSERT INTO rate_plans AS t (uuid, portfolio_uuid, name, occupancy_bands) VALUES ($1, $2, $3, $4)
     ON CONFLICT (uuid) DO UPDATE SET name = EXCLUDED.name, occupancy_bands = EXCLUDED.occupancy_bands
      WHERE t.portfolio_uuid = EXCLUDED.portfolio_uuid
        AND ROW(t.name, t.occupancy_bands) IS DISTINCT FROM ROW(EXCLUDED.name, EXCLUDED.occupancy_bands)
     RETURNING (xmax = 0) AS inserted`),
  owned: sql('SELECT portfolio_uuid = $2 AS owned FROM rate_plans WHERE uuid = $1'),
};

/** The bands go as their JSON text: an array parameter would become a PostgreSQL array. */
export function upsertRatePlan(db: Queryable, portfolioUuid: string, uuid: string, row: RatePlanRow): Promise<UpsertOutcome> {
  return upsertOwned(db, RATE_PLAN, [uuid, portfolioUuid, row.name, JSON.stringify(row.occupancyBands)]);
}
