import { Inject, Injectable } from '@nestjs/common';
import { InvalidRequestException } from '@storage/platform';
import { repriceUnitGroup } from '@storage/unit-occupancy';
import { DataSource } from 'typeorm';
import { query } from '@storage/persistence';
import { lowerUuids, notFound } from '../common';
import type { PatchUnitGroupRate, UnitGroupRates } from './portfolio.dto';
import { SIZE_AND_TYPE_GROUPS_STATEMENT } from './portfolio.queries';

@Injectable()
export class UnitGroupsService {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  /** Operation 7, as JSON text: one prepared statement, the body passed through as PostgreSQL built it. Unknown UUIDs are left out. */
  async sizeAndTypeGroupsJson(portfolioUuid: string, facilityUuid: string, uuids: string[]): Promise<string> {
    const rows = await query(this.dataSource, SIZE_AND_TYPE_GROUPS_STATEMENT, [facilityUuid, portfolioUuid, lowerUuids(uuids)]);
    const row = rows[0];
    if (row === undefined) throw notFound('Facility', facilityUuid);
    return row.body;
  }

  /** Operation 10: new base rates, and current rates recomputed from occupancy and the rate plan. */
  async patchRate(portfolioUuid: string, facilityUuid: string, unitGroupUuid: string, patch: PatchUnitGroupRate): Promise<UnitGroupRates> {
    if (patch.baseWebRateInPennies === undefined && patch.baseStreetRateInPennies === undefined) {
      throw new InvalidRequestException([{ field: 'body', message: 'baseWebRateInPennies or baseStreetRateInPennies is required' }]);
    }
    const rates = await this.dataSource.transaction((db) => repriceUnitGroup(db, unitGroupUuid, { base: patch, within: { facilityUuid, portfolioUuid } }));
    if (rates === null) throw notFound('Unit group', unitGroupUuid);
    return rates;
  }
}
