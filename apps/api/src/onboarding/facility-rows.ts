import type { CoverageProvider, PromotionDiscountType, PromotionTenantType } from '@storage/domain';
import { sql, upsertOwned, type OwnedUpsert, type Queryable, type UpsertOutcome } from '@storage/persistence';
import type { OperatingHours } from '../model/facility.entity';
import type { PromotionFamilyKind } from '../model/promotion.entity';

/**
 * The writes of a facility and its configuration, one typed upsert per table (`upsertOwned` of
 * `@storage/persistence`): each creates the row of the caller's uuid under its owner (the portfolio of a facility,
 * the facility of the others), or brings it to the values given, and says which.
 */

export interface FacilityRow {
  name: string;
  addressLine1: string;
  addressLine2: string | null;
  city: string;
  state: string;
  zip: string;
  country: string;
  phone: string;
  operatingHours: OperatingHours;
  timeZone: string;
}

type FacilityValues = [
  uuid: string,
  portfolioUuid: string,
  name: string,
  addressLine1: string,
  addressLine2: string | null,
  city: string,
  state: string,
  zip: string,
  country: string,
  phone: string,
  operatingHours: string,
  timeZone: string,
];

const FACILITY: OwnedUpsert<FacilityValues> = {
  write:
    sql(`INSERT INTO facilities AS t (uuid, portfolio_uuid, name, address_line1, address_line2, city, state, zip, country, phone, operating_hours, time_zone)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
     ON CONFLICT (uuid) DO UPDATE SET name = EXCLUDED.name, address_line1 = EXCLUDED.address_line1, address_line2 = EXCLUDED.address_line2,
       city = EXCLUDED.city, state = EXCLUDED.state, zip = EXCLUDED.zip, country = EXCLUDED.country, phone = EXCLUDED.phone,
       operating_hours = EXCLUDED.operating_hours, time_zone = EXCLUDED.time_zone
      WHERE t.portfolio_uuid = EXCLUDED.portfolio_uuid
        AND ROW(t.name, t.address_line1, t.address_line2, t.city, t.state, t.zip, t.country, t.phone, t.operating_hours, t.time_zone)
        IS DISTINCT FROM ROW(EXCLUDED.name, EXCLUDED.address_line1, EXCLUDED.address_line2, EXCLUDED.city, EXCLUDED.state, EXCLUDED.zip,
          EXCLUDED.country, EXCLUDED.phone, EXCLUDED.operating_hours, EXCLUDED.time_zone)
     RETURNING (xmax = 0) AS inserted`),
  owned: sql('SELECT portfolio_uuid = $2 AS owned FROM facilities WHERE uuid = $1'),
};

/** The operating hours go as their JSON text (jsonb). */
export function upsertFacility(db: Queryable, portfolioUuid: string, uuid: string, row: FacilityRow): Promise<UpsertOutcome> {
  return upsertOwned(db, FACILITY, [
    uuid,
    portfolioUuid,
    row.name,
    row.addressLine1,
    row.addressLine2,
    row.city,
    row.state,
    row.zip,
    row.country,
    row.phone,
    JSON.stringify(row.operatingHours),
    row.timeZone,
  ]);
}

export interface SizeAndTypeGroupRow {
  unitTypeUuid: string;
  length: number;
  width: number;
  height: number;
}

type SizeAndTypeGroupValues = [uuid: string, facilityUuid: string, unitTypeUuid: string, length: number, width: number, height: number];

const SIZE_AND_TYPE_GROUP: OwnedUpsert<SizeAndTypeGroupValues> = {
  write: sql(`INSERT INTO size_and_type_groups AS t (uuid, facility_uuid, unit_type_uuid, length, width, height) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (uuid) DO UPDATE SET unit_type_uuid = EXCLUDED.unit_type_uuid, length = EXCLUDED.length, width = EXCLUDED.width, height = EXCLUDED.height
      WHERE t.facility_uuid = EXCLUDED.facility_uuid
        AND ROW(t.unit_type_uuid, t.length, t.width, t.height) IS DISTINCT FROM ROW(EXCLUDED.unit_type_uuid, EXCLUDED.length, EXCLUDED.width, EXCLUDED.height)
     RETURNING (xmax = 0) AS inserted`),
  owned: sql('SELECT facility_uuid = $2 AS owned FROM size_and_type_groups WHERE uuid = $1'),
};

export function upsertSizeAndTypeGroup(db: Queryable, facilityUuid: string, uuid: string, row: SizeAndTypeGroupRow): Promise<UpsertOutcome> {
  return upsertOwned(db, SIZE_AND_TYPE_GROUP, [uuid, facilityUuid, row.unitTypeUuid, row.length, row.width, row.height]);
}

export interface PromotionRow {
  name: string;
  isAutoApplied: boolean;
  tenantType: PromotionTenantType;
  isAutoPayRequired: boolean;
  discountType: PromotionDiscountType;
  percentage: number | null;
  amountInPennies: number | null;
  monthStarts: number;
  durationInMonths: number;
  unitGroupUuids: readonly string[];
  validFrom: string | null;
  validTo: string | null;
  family: PromotionFamilyKind;
  itemTypeUuid: string | null;
}

type PromotionValues = [
  uuid: string,
  facilityUuid: string,
  name: string,
  isAutoApplied: boolean,
  tenantType: PromotionTenantType,
  isAutoPayRequired: boolean,
  discountType: PromotionDiscountType,
  percentage: number | null,
  amountInPennies: number | null,
  monthStarts: number,
  durationInMonths: number,
  unitGroupUuids: readonly string[],
  validFrom: string | null,
  validTo: string | null,
  family: PromotionFamilyKind,
  itemTypeUuid: string | null,
];

const PROMOTION: OwnedUpsert<PromotionValues> = {
  write: sql(`INSERT INTO promotions AS t (uuid, facility_uuid, name, is_auto_applied, tenant_type, is_auto_pay_required, discount_type, percentage,
       amount_in_pennies, month_starts, duration_in_months, unit_group_uuids, valid_from, valid_to, family, item_type_uuid)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
     ON CONFLICT (uuid) DO UPDATE SET name = EXCLUDED.name, is_auto_applied = EXCLUDED.is_auto_applied, tenant_type = EXCLUDED.tenant_type,
       is_auto_pay_required = EXCLUDED.is_auto_pay_required, discount_type = EXCLUDED.discount_type, percentage = EXCLUDED.percentage,
       amount_in_pennies = EXCLUDED.amount_in_pennies, month_starts = EXCLUDED.month_starts, duration_in_months = EXCLUDED.duration_in_months,
       unit_group_uuids = EXCLUDED.unit_group_uuids, valid_from = EXCLUDED.valid_from, valid_to = EXCLUDED.valid_to, family = EXCLUDED.family,
       item_type_uuid = EXCLUDED.item_type_uuid
      WHERE t.facility_uuid = EXCLUDED.facility_uuid
        AND ROW(t.name, t.is_auto_applied, t.tenant_type, t.is_auto_pay_required, t.discount_type, t.percentage, t.amount_in_pennies, t.month_starts,
          t.duration_in_months, t.unit_group_uuids, t.valid_from, t.valid_to, t.family, t.item_type_uuid)
        IS DISTINCT FROM ROW(EXCLUDED.name, EXCLUDED.is_auto_applied, EXCLUDED.tenant_type, EXCLUDED.is_auto_pay_required, EXCLUDED.discount_type,
          EXCLUDED.percentage, EXCLUDED.amount_in_pennies, EXCLUDED.month_starts, EXCLUDED.duration_in_months, EXCLUDED.unit_group_uuids,
          EXCLUDED.valid_from, EXCLUDED.valid_to, EXCLUDED.family, EXCLUDED.item_type_uuid)
     RETURNING (xmax = 0) AS inserted`),
  owned: sql('SELECT facility_uuid = $2 AS owned FROM promotions WHERE uuid = $1'),
};

export function upsertPromotion(db: Queryable, facilityUuid: string, uuid: string, row: PromotionRow): Promise<UpsertOutcome> {
  return upsertOwned(db, PROMOTION, [
    uuid,
    facilityUuid,
    row.name,
    row.isAutoApplied,
    row.tenantType,
    row.isAutoPayRequired,
    row.discountType,
    row.percentage,
    row.amountInPennies,
    row.monthStarts,
    row.durationInMonths,
    row.unitGroupUuids,
    row.validFrom,
    row.validTo,
    row.family,
    row.itemTypeUuid,
  ]);
}

export interface CoverageRow {
  itemTypeUuid: string;
  premiumInPennies: number;
  coverageAmountInPennies: number;
  description: string;
  provider: CoverageProvider;
  allowManualChanges: boolean;
  providerDescription: string;
  isDefault: boolean;
}

type CoverageValues = [
  uuid: string,
  facilityUuid: string,
  itemTypeUuid: string,
  premiumInPennies: number,
  coverageAmountInPennies: number,
  description: string,
  provider: CoverageProvider,
  allowManualChanges: boolean,
  providerDescription: string,
  isDefault: boolean,
];

const COVERAGE: OwnedUpsert<CoverageValues> = {
  write: sql(`INSERT INTO coverages AS t (uuid, facility_uuid, item_type_uuid, premium_in_pennies, coverage_amount_in_pennies, description, provider,
       allow_manual_changes, provider_description, is_default)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (uuid) DO UPDATE SET item_type_uuid = EXCLUDED.item_type_uuid, premium_in_pennies = EXCLUDED.premium_in_pennies,
       coverage_amount_in_pennies = EXCLUDED.coverage_amount_in_pennies, description = EXCLUDED.description, provider = EXCLUDED.provider,
       allow_manual_changes = EXCLUDED.allow_manual_changes, provider_description = EXCLUDED.provider_description, is_default = EXCLUDED.is_default
      WHERE t.facility_uuid = EXCLUDED.facility_uuid
        AND ROW(t.item_type_uuid, t.premium_in_pennies, t.coverage_amount_in_pennies, t.description, t.provider, t.allow_manual_changes,
          t.provider_description, t.is_default)
        IS DISTINCT FROM ROW(EXCLUDED.item_type_uuid, EXCLUDED.premium_in_pennies, EXCLUDED.coverage_amount_in_pennies, EXCLUDED.description,
          EXCLUDED.provider, EXCLUDED.allow_manual_changes, EXCLUDED.provider_description, EXCLUDED.is_default)
     RETURNING (xmax = 0) AS inserted`),
  owned: sql('SELECT facility_uuid = $2 AS owned FROM coverages WHERE uuid = $1'),
};

export function upsertCoverage(db: Queryable, facilityUuid: string, uuid: string, row: CoverageRow): Promise<UpsertOutcome> {
  return upsertOwned(db, COVERAGE, [
    uuid,
    facilityUuid,
    row.itemTypeUuid,
    row.premiumInPennies,
    row.coverageAmountInPennies,
    row.description,
    row.provider,
    row.allowManualChanges,
    row.providerDescription,
    row.isDefault,
  ]);
}
