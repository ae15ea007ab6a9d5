import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { bestPromotionsForUnitGroup, type ItemType, type Promotion } from '@storage/domain';
import { requireFacility, todayIn } from '../common';
import type { PromotionRecord } from '../model/promotion.entity';
import type { EligibleAutoAppliedPromotionsByGroup, EligiblePromotionsRequest } from './promotions.dto';
import { query, sql } from '@storage/persistence';

type PromotionRow = Pick<
  PromotionRecord,
  | 'uuid'
  | 'name'
  | 'createdAt'
  | 'tenantType'
  | 'isAutoPayRequired'
  | 'discountType'
  | 'percentage'
  | 'amountInPennies'
  | 'monthStarts'
  | 'durationInMonths'
  | 'unitGroupUuids'
  | 'validFrom'
  | 'validTo'
  | 'family'
  | 'itemTypeUuid'
>;

/** Maps a stored promotion to the domain's, whose rules price it. */
export function toDomainPromotion(row: PromotionRow): Promotion {
  return {
    uuid: row.uuid,
    name: row.name,
    createdAt: row.createdAt,
    tenantType: row.tenantType,
    isAutoPayRequired: row.isAutoPayRequired,
    discountType: row.discountType,
    percentage: row.percentage === null ? null : Number(row.percentage),
    amountInPennies: row.amountInPennies,
    monthStarts: row.monthStarts,
    durationInMonths: row.durationInMonths,
    unitGroupUuids: row.unitGroupUuids,
    validFrom: row.validFrom,
    validTo: row.validTo,
    family:
      row.family === 'DISCOUNTED_SERVICE' && row.itemTypeUuid !== null ? { kind: 'DISCOUNTED_SERVICE', itemTypeUuid: row.itemTypeUuid } : { kind: 'RENT' },
  };
}

/**
 * Runs the reads side by side on the pool's connections, or one after another on a transaction's single
 * connection, which runs one query at a time.
 */
async function readAll<T extends unknown[]>(db: EntityManager, ...reads: { [K in keyof T]: () => Promise<T[K]> }): Promise<T> {
  if (db.queryRunner === undefined) return (await Promise.all(reads.map((read) => read()))) as T;
  const results: unknown[] = [];
  for (const read of reads) results.push(await read());
  return results as T;
}

/** Operation 1: per unit group, the rent-family winner and the best service promotion per item type. */
@Injectable()
export class PromotionsService {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** `db`: a transaction's manager to price inside it (lease signing records what it prices). */
  async eligible(
    portfolioUuid: string,
    request: EligiblePromotionsRequest,
    db: EntityManager = this.dataSource.manager,
  ): Promise<EligibleAutoAppliedPromotionsByGroup[]> {
    const facility = await requireFacility(db, portfolioUuid, request.facilityUuids.toLowerCase());
    const wanted = request.unitGroupUuids?.map((uuid) => uuid.toLowerCase()) ?? null;
    const [unitGroups, promotionRows, itemTypes] = await readAll(
      db,
      () =>
        query(
          db,
          sql<{ uuid: string; webRate: number }, [string, string[] | null]>(`SELECT uuid, current_web_rate_in_pennies AS "webRate" FROM unit_groups
         WHERE facility_uuid = $1 AND ($2::uuid[] IS NULL OR uuid = ANY($2::uuid[])) ORDER BY uuid`),
          [facility.uuid, wanted],
        ),
      () =>
        query(
          db,
          sql<PromotionRow, [string]>(`SELECT uuid, name, created_at AS "createdAt", tenant_type AS "tenantType", is_auto_pay_required AS "isAutoPayRequired",
                discount_type AS "discountType", percentage, amount_in_pennies AS "amountInPennies", month_starts AS "monthStarts",
                duration_in_months AS "durationInMonths", unit_group_uuids AS "unitGroupUuids", to_char(valid_from, 'YYYY-MM-DD') AS "validFrom",
                to_char(valid_to, 'YYYY-MM-DD') AS "validTo", family, item_type_uuid AS "itemTypeUuid"
         FROM promotions WHERE facility_uuid = $1 AND is_auto_applied`),
          [facility.uuid],
        ),
      () =>
        query(
          db,
          sql<ItemType, [string]>(`SELECT uuid AS "itemTypeUuid", name, price_in_pennies AS "priceInPennies" FROM item_types
         WHERE uuid IN (SELECT item_type_uuid FROM promotions WHERE facility_uuid = $1 AND item_type_uuid IS NOT NULL)`),
          [facility.uuid],
        ),
    );
    const promotions = promotionRows.map(toDomainPromotion);
    const context = { isForBusiness: request.isForBusiness, isAutopayEnabled: request.isAutopayEnabled, asOf: todayIn(facility.timeZone) };
    return unitGroups.map((group) => {
      const best = bestPromotionsForUnitGroup({ unitGroupUuid: group.uuid, webRateInPennies: group.webRate, promotions, itemTypes, context });
      const where = { facilityUuid: facility.uuid, unitGroupUuid: group.uuid };
      return {
        ...where,
        bestAutoAppliedPromotion: best.bestRent === null ? null : { ...where, ...best.bestRent },
        serviceWinners: best.serviceWinners.map((winner) => ({ ...where, ...winner })),
      };
    });
  }
}
