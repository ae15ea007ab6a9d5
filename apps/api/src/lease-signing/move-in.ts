import type { EntityManager } from 'typeorm';
import { query, sql } from '@storage/persistence';

/*
 * A vacant unit of the group, locked. SKIP LOCKED: a unit another signing is taking is passed over, so
 * two leads racing for the last unit do not queue; the loser finds none and is refused at once.
 */
const CLAIM_UNIT_SQL = `
SELECT uuid FROM units WHERE unit_group_uuid = $1 AND status = 'vacant'
 ORDER BY name, uuid LIMIT 1
   FOR UPDATE SKIP LOCKED`;

export async function claimVacantUnit(db: EntityManager, unitGroupUuid: string): Promise<string | null> {
  const rows = await query(db, sql<{ uuid: string }, [unitGroupUuid: string]>(CLAIM_UNIT_SQL), [unitGroupUuid]);
  return rows[0]?.uuid ?? null;
}
