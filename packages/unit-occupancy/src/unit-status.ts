import type { EntityManager } from 'typeorm';
import { repriceUnitGroup } from './unit-group-rates';

/** What occupancy counts: a unit is let (occupied) or free to rent (vacant). */
export type OccupancyStatus = 'occupied' | 'vacant';

/**
 * Marks a unit occupied or vacant and reprices its unit group, whose current rates follow occupancy.
 * The caller holds the lock of the unit (or of the rental on it).
 */
export async function setUnitStatus(db: EntityManager, unitUuid: string, status: OccupancyStatus): Promise<void> {
  // TypeORM answers an UPDATE … RETURNING with [rows, affected count].
  const [units] = await db.query<[{ unitGroupUuid: string }[], number]>(
    `UPDATE units SET status = $2 WHERE uuid = $1 RETURNING unit_group_uuid AS "unitGroupUuid"`,
    [unitUuid, status],
  );
  const unit = units[0];
  if (unit === undefined) throw new Error(`unit ${unitUuid} vanished inside its own transaction`);
  await repriceUnitGroup(db, unit.unitGroupUuid);
}
