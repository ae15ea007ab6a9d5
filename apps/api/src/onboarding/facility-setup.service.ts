import { ConflictException, Injectable } from '@nestjs/common';
import { saveFacilitySchedule } from '@storage/delinquency';
import { delinquencyScheduleSchema } from '@storage/domain';
import { InvalidRequestException } from '@storage/platform';
import { repriceUnitGroup, saveUnit, saveUnitGroup, UnitConflict } from '@storage/unit-occupancy';
import type { EntityManager } from 'typeorm';
import { lowerUuids, requireFacility } from '../common';
import type { Outcome } from './catalog.dto';
import { upsertCoverage, upsertFacility, upsertPromotion, upsertSizeAndTypeGroup } from './facility-rows';
import {
  WEEKDAYS,
  type PutCoverageRequest,
  type PutDelinquencyScheduleRequest,
  type PutFacilityRequest,
  type PutPromotionRequest,
  type PutSizeAndTypeGroupRequest,
  type PutUnitGroupRequest,
  type PutUnitRequest,
} from './facility.dto';
import { requireReferences } from './references';
import { combine, recordOutcome } from './upsert';
import { query, sql } from '@storage/persistence';

/** Where a facility's record lives: the portfolio (checked by the api key) and the facility of the path. */
export interface FacilityScope {
  portfolioUuid: string;
  facilityUuid: string;
}

/**
 * Facilities and what they hold: size-and-type groups, unit groups with their amenities, units, promotions,
 * coverages and the delinquency schedule. Every write takes the caller's transaction (the api's per request,
 * `import`'s for a whole file), and keeps the rows others derive from consistent: unit counts are the occupancy
 * triggers', current rates are repriced here whenever units or base rates move.
 */
@Injectable()
export class FacilitySetupService {
  async putFacility(db: EntityManager, portfolioUuid: string, uuid: string, body: PutFacilityRequest): Promise<Outcome> {
    await requireTimeZone(db, body.timeZone);
    const operatingHours = Object.fromEntries(
      WEEKDAYS.map((day) => {
        const hours = body.operatingHours[day];
        return [day, hours ? { open: hours.open, close: hours.close } : null];
      }),
    );
    const outcome = await upsertFacility(db, portfolioUuid, uuid, {
      name: body.name,
      addressLine1: body.addressLine1,
      addressLine2: body.addressLine2 ?? null,
      city: body.city,
      state: body.state,
      zip: body.zip,
      country: body.country ?? 'US',
      phone: body.phone,
      operatingHours,
      timeZone: body.timeZone,
    });
    return recordOutcome('Facility', uuid, outcome);
  }

  async putSizeAndTypeGroup(db: EntityManager, scope: FacilityScope, uuid: string, body: PutSizeAndTypeGroupRequest): Promise<Outcome> {
    await requireFacility(db, scope.portfolioUuid, scope.facilityUuid);
    await requireReferences(db, scope, 'unitTypeUuid', [body.unitTypeUuid], 'unitType');
    const row = { unitTypeUuid: body.unitTypeUuid, length: body.length, width: body.width, height: body.height };
    return recordOutcome('Size-and-type group', uuid, await upsertSizeAndTypeGroup(db, scope.facilityUuid, uuid, row));
  }

  /** The group, its amenities (the list replaces them), then its current rates from its base rates, plan and occupancy. */
  async putUnitGroup(
    db: EntityManager,
    scope: FacilityScope,
    uuid: string,
    body: PutUnitGroupRequest,
  ): Promise<{ outcome: Outcome; currentStreetRateInPennies: number; currentWebRateInPennies: number }> {
    await requireFacility(db, scope.portfolioUuid, scope.facilityUuid);
    const amenityUuids = [...new Set(lowerUuids(body.amenityUuids ?? []))].sort();
    await requireReferences(db, scope, 'sizeAndTypeGroupUuid', [body.sizeAndTypeGroupUuid], 'sizeAndTypeGroup');
    await requireReferences(db, scope, 'ratePlanUuid', [body.ratePlanUuid], 'ratePlan');
    await requireReferences(db, scope, 'amenityUuids', amenityUuids, 'amenity');
    const outcome = await unitRules(() =>
      saveUnitGroup(db, scope.facilityUuid, uuid, {
        sizeAndTypeGroupUuid: body.sizeAndTypeGroupUuid,
        description: body.description,
        tierLevel: body.tierLevel ?? 1,
        ratePlanUuid: body.ratePlanUuid,
        baseStreetRateInPennies: body.baseStreetRateInPennies,
        baseWebRateInPennies: body.baseWebRateInPennies,
        canShowUnitGroupTenantPortal: body.canShowUnitGroupTenantPortal ?? true,
      }),
    );
    const removed = await query(
      db,
      sql<unknown, [unitGroupUuid: string, amenityUuids: string[]]>(
        'DELETE FROM unit_group_amenities WHERE unit_group_uuid = $1 AND amenity_uuid <> ALL($2::uuid[]) RETURNING amenity_uuid',
      ),
      [uuid, amenityUuids],
    );
    const added = await query(
      db,
      sql<unknown, [unitGroupUuid: string, amenityUuids: string[]]>(
        `INSERT INTO unit_group_amenities (unit_group_uuid, amenity_uuid) SELECT $1, unnest($2::uuid[]) ON CONFLICT DO NOTHING RETURNING amenity_uuid`,
      ),
      [uuid, amenityUuids],
    );
    const rates = await repriceUnitGroup(db, uuid);
    if (rates === null) throw new Error(`unit group ${uuid} vanished while written`);
    return {
      outcome: combine(outcome, removed.length > 0, added.length > 0),
      currentStreetRateInPennies: rates.currentStreetRateInPennies,
      currentWebRateInPennies: rates.currentWebRateInPennies,
    };
  }

  /** A unit, written by its owner (`saveUnit` of `@storage/unit-occupancy`, which keeps its rules and its groups' rates). */
  async putUnit(db: EntityManager, scope: FacilityScope, uuid: string, body: PutUnitRequest): Promise<Outcome> {
    await requireFacility(db, scope.portfolioUuid, scope.facilityUuid);
    await requireReferences(db, scope, 'unitGroupUuid', [body.unitGroupUuid], 'unitGroup');
    return unitRules(() => saveUnit(db, scope.facilityUuid, uuid, { unitGroupUuid: body.unitGroupUuid, name: body.name, floor: body.floor ?? '1' }));
  }

  async putPromotion(db: EntityManager, scope: FacilityScope, uuid: string, body: PutPromotionRequest): Promise<Outcome> {
    await requireFacility(db, scope.portfolioUuid, scope.facilityUuid);
    const family = body.family ?? 'RENT';
    const itemTypeUuid = body.itemTypeUuid ?? null;
    if (family === 'RENT' && itemTypeUuid !== null)
      throw new InvalidRequestException([{ field: 'itemTypeUuid', message: 'itemTypeUuid is for DISCOUNTED_SERVICE promotions only' }]);
    if (itemTypeUuid !== null) await requireReferences(db, scope, 'itemTypeUuid', [itemTypeUuid], 'serviceItemType');
    const unitGroupUuids = [...new Set(lowerUuids(body.unitGroupUuids ?? []))].sort();
    await requireReferences(db, scope, 'unitGroupUuids', unitGroupUuids, 'unitGroup');
    const validFrom = body.validFrom ?? null;
    const validTo = body.validTo ?? null;
    if (validFrom !== null && validTo !== null && validTo < validFrom)
      throw new InvalidRequestException([{ field: 'validTo', message: 'validTo must not be before validFrom' }]);
    const isPercentage = body.discountType === 'PERCENTAGE';
    const outcome = await upsertPromotion(db, scope.facilityUuid, uuid, {
      name: body.name,
      isAutoApplied: body.isAutoApplied ?? true,
      tenantType: body.tenantType ?? 'ALL',
      isAutoPayRequired: body.isAutoPayRequired ?? false,
      discountType: body.discountType,
      // Only the figure of its discount type is kept, so a retry compares equal.
      percentage: isPercentage ? (body.percentage ?? null) : null,
      amountInPennies: isPercentage ? null : (body.amountInPennies ?? null),
      monthStarts: body.monthStarts ?? 1,
      durationInMonths: body.durationInMonths ?? 1,
      unitGroupUuids,
      validFrom,
      validTo,
      family,
      itemTypeUuid,
    });
    return recordOutcome('Promotion', uuid, outcome);
  }

  /** At most one default coverage per facility (the one lease signing enrolls): a new default unsets the others. */
  async putCoverage(db: EntityManager, scope: FacilityScope, uuid: string, body: PutCoverageRequest): Promise<Outcome> {
    await requireFacility(db, scope.portfolioUuid, scope.facilityUuid);
    await lockFacilityCoverages(db, scope.facilityUuid);
    await requireReferences(db, scope, 'itemTypeUuid', [body.itemTypeUuid], 'coverageItemType');
    const isDefault = body.isDefault ?? false;
    const written = await upsertCoverage(db, scope.facilityUuid, uuid, {
      itemTypeUuid: body.itemTypeUuid,
      premiumInPennies: body.premiumInPennies,
      coverageAmountInPennies: body.coverageAmountInPennies,
      description: body.description,
      provider: body.provider,
      allowManualChanges: body.allowManualChanges ?? false,
      providerDescription: body.providerDescription ?? '',
      isDefault,
    });
    const outcome = recordOutcome('Coverage', uuid, written);
    if (!isDefault) return outcome;
    const unset = await query(
      db,
      sql<unknown, [facilityUuid: string, uuid: string]>(
        'UPDATE coverages SET is_default = false WHERE facility_uuid = $1 AND uuid <> $2 AND is_default RETURNING uuid',
      ),
      [scope.facilityUuid, uuid],
    );
    return combine(outcome, unset.length > 0);
  }

  /** The schedule belongs to @storage/delinquency, which writes it; its rule (stages in order) answers 400 here. */
  async putDelinquencySchedule(db: EntityManager, scope: FacilityScope, body: PutDelinquencyScheduleRequest): Promise<Outcome> {
    await requireFacility(db, scope.portfolioUuid, scope.facilityUuid);
    const checked = delinquencyScheduleSchema.safeParse(body);
    if (!checked.success)
      throw new InvalidRequestException(checked.error.issues.map((issue) => ({ field: issue.path.join('.') || 'body', message: issue.message })));
    const [existing] = await query(db, sql<unknown, [string]>('SELECT 1 FROM delinquency_schedules WHERE facility_uuid = $1'), [scope.facilityUuid]);
    const written = await saveFacilitySchedule(db, scope.facilityUuid, checked.data);
    return !written ? 'unchanged' : existing === undefined ? 'created' : 'updated';
  }
}

/** Business days are counted in the zone by both Node (Intl) and PostgreSQL (`AT TIME ZONE`): both must know it. */
async function requireTimeZone(db: EntityManager, timeZone: string): Promise<void> {
  let knownToNode = true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
  } catch {
    knownToNode = false;
  }
  const [row]: { known: boolean }[] = knownToNode
    ? await query(db, sql<{ known: boolean }, [string]>('SELECT EXISTS (SELECT 1 FROM pg_timezone_names WHERE name = $1) AS known'), [timeZone])
    : [{ known: false }];
  if (!row.known)
    throw new InvalidRequestException([{ field: 'timeZone', message: `timeZone "${timeZone}" is not an IANA time zone (e.g. America/New_York)` }]);
}

/** Namespace of the default coverage's advisory locks (the scheduler's facility runs use 7302, unit names 7303). */
const DEFAULT_COVERAGE_LOCK = 7304;

/**
 * One coverage of a facility is the default, checked by reading the others, which two concurrent writes would both
 * pass: the coverage writes of one facility take turns, until commit.
 */
async function lockFacilityCoverages(db: EntityManager, facilityUuid: string): Promise<void> {
  await query(db, sql<unknown, [number, string]>('SELECT pg_advisory_xact_lock($1, hashtext($2))'), [DEFAULT_COVERAGE_LOCK, facilityUuid]);
}

/** The units' owner refuses what breaks their rules; the api answers it 409. */
async function unitRules<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof UnitConflict) throw new ConflictException(error.message);
    throw error;
  }
}
