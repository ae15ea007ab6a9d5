import type { EntityManager } from 'typeorm';
import { currentRates, occupancyPercent, type OccupancyBand } from '@storage/domain';
import { updateReturning } from '../common';
import type { UnitStatus } from '../model/unit.entity';

/**
 * Marks a unit occupied or vacant and recomputes its group's current rates, which follow occupancy
 * (ARCHITECTURE.md "Rate plans"). The caller holds the unit's lock.
 */
export async function setUnitStatus(db: EntityManager, unitUuid: string, status: UnitStatus): Promise<void> {
  const [unit] = await updateReturning<{ unitGroupUuid: string }>(
    db,
    `UPDATE units SET status = $2 WHERE uuid = $1 RETURNING unit_group_uuid AS "unitGroupUuid"`,
    [unitUuid, status],
  );
  if (unit === undefined) throw new Error(`unit ${unitUuid} vanished inside its own transaction`);
  await refreshGroupRates(db, unit.unitGroupUuid);
}

async function refreshGroupRates(db: EntityManager, unitGroupUuid: string): Promise<void> {
  const rows: { baseStreet: number; baseWeb: number; bands: OccupancyBand[] | null; numUnits: number; numOccupied: number }[] = await db.query(
    `SELECT g.base_street_rate_in_pennies AS "baseStreet", g.base_web_rate_in_pennies AS "baseWeb", rp.occupancy_bands AS bands,
            (SELECT count(*)::int FROM units u WHERE u.unit_group_uuid = g.uuid) AS "numUnits",
            (SELECT count(*)::int FROM units u WHERE u.unit_group_uuid = g.uuid AND u.status = 'occupied') AS "numOccupied"
       FROM unit_groups g LEFT JOIN rate_plans rp ON rp.uuid = g.rate_plan_uuid
      WHERE g.uuid = $1
        FOR NO KEY UPDATE OF g`,
    [unitGroupUuid],
  );
  const group = rows[0];
  if (group === undefined) return;
  const rates = currentRates({
    baseStreetRateInPennies: group.baseStreet,
    baseWebRateInPennies: group.baseWeb,
    occupancyPercent: occupancyPercent(group.numUnits, group.numOccupied),
    bands: group.bands ?? [],
  });
  await db.query(`UPDATE unit_groups SET current_street_rate_in_pennies = $2, current_web_rate_in_pennies = $3 WHERE uuid = $1`, [
    unitGroupUuid,
    rates.currentStreetRateInPennies,
    rates.currentWebRateInPennies,
  ]);
}
