import { Inject, Injectable } from '@nestjs/common';
import { currentRates, occupancyPercent, type OccupancyBand } from '@storage/domain';
import { InvalidRequestException } from '@storage/platform';
import { DataSource } from 'typeorm';
import { lowerUuids, notFound, queryPrepared } from '../common';
import type { PatchUnitGroupRate, UnitGroupRates } from './portfolio.dto';
import { SIZE_AND_TYPE_GROUPS_STATEMENT } from './portfolio.queries';

@Injectable()
export class UnitGroupsService {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** Operation 7, as JSON text: one prepared statement, the body passed through as PostgreSQL built it. Unknown UUIDs are left out. */
  async sizeAndTypeGroupsJson(portfolioUuid: string, facilityUuid: string, uuids: string[]): Promise<string> {
    const rows = await queryPrepared<{ body: string }>(this.dataSource, SIZE_AND_TYPE_GROUPS_STATEMENT, [facilityUuid, portfolioUuid, lowerUuids(uuids)]);
    const row = rows[0];
    if (row === undefined) throw notFound('Facility', facilityUuid);
    return row.body;
  }

  /** Operation 10: new base rates, and current rates recomputed from occupancy and the rate plan. */
  async patchRate(portfolioUuid: string, facilityUuid: string, unitGroupUuid: string, patch: PatchUnitGroupRate): Promise<UnitGroupRates> {
    if (patch.baseWebRateInPennies === undefined && patch.baseStreetRateInPennies === undefined) {
      throw new InvalidRequestException([{ field: 'body', message: 'baseWebRateInPennies or baseStreetRateInPennies is required' }]);
    }
    return this.dataSource.transaction(async (db) => {
      const rows: { baseStreet: number; baseWeb: number; bands: OccupancyBand[] | null; numUnits: number; numOccupied: number }[] = await db.query(
        `SELECT g.base_street_rate_in_pennies AS "baseStreet", g.base_web_rate_in_pennies AS "baseWeb", rp.occupancy_bands AS bands,
                (SELECT count(*)::int FROM units u WHERE u.unit_group_uuid = g.uuid) AS "numUnits",
                (SELECT count(*)::int FROM units u WHERE u.unit_group_uuid = g.uuid AND u.status = 'occupied') AS "numOccupied"
         FROM unit_groups g JOIN facilities f ON f.uuid = g.facility_uuid LEFT JOIN rate_plans rp ON rp.uuid = g.rate_plan_uuid
         WHERE g.uuid = $1 AND g.facility_uuid = $2 AND f.portfolio_uuid = $3
         FOR UPDATE OF g`,
        [unitGroupUuid, facilityUuid, portfolioUuid],
      );
      const group = rows[0];
      if (group === undefined) throw notFound('Unit group', unitGroupUuid);
      const occupancy = occupancyPercent(group.numUnits, group.numOccupied);
      const base = { baseStreetRateInPennies: patch.baseStreetRateInPennies ?? group.baseStreet, baseWebRateInPennies: patch.baseWebRateInPennies ?? group.baseWeb };
      const current = currentRates({ ...base, occupancyPercent: occupancy, bands: group.bands ?? [] });
      await db.query(
        `UPDATE unit_groups SET base_street_rate_in_pennies = $2, base_web_rate_in_pennies = $3,
                current_street_rate_in_pennies = $4, current_web_rate_in_pennies = $5 WHERE uuid = $1`,
        [unitGroupUuid, base.baseStreetRateInPennies, base.baseWebRateInPennies, current.currentStreetRateInPennies, current.currentWebRateInPennies],
      );
      return { unitGroupUuid, ...base, ...current, occupancyPercent: occupancy };
    });
  }
}
