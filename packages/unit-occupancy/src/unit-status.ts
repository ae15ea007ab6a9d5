import type { EntityManager } from 'typeorm';
import { query, sql } from '@storage/persistence';
import type { UnitStatus } from './entities/unit.entity';
import { repriceUnitGroup } from './unit-group-rates';

const SET_STATUS = sql<{ unitGroupUuid: string }, [string, UnitStatus]>(
  'UPDATE units SET status = $2 WHERE uuid = $1 RETURNING unit_group_uuid AS "unitGroupUuid"',
);

/**
 * Marks a unit occupied or vacant and reprices its unit group, whose current rates follow occupancy.
 * The caller holds the lock of the unit (or of the rental on it).
 */
export async function setUnitStatus(db: EntityManager, unitUuid: string, status: UnitStatus): Promise<void> {
  const [unit] = await query(db, SET_STATUS, [unitUuid, status]);
  if (unit === undefined) throw new Error(`unit ${unitUuid} vanished inside its own transaction`);
  await repriceUnitGroup(db, unit.unitGroupUuid);
}
