import type { EntityManager } from 'typeorm';
import { repriceUnitGroup } from '@storage/unit-occupancy';
import { query, sql } from '@storage/persistence';

/** Current rates follow the rate plan: every group on a changed plan is repriced, in uuid order (the lock order of occupancy). */
export async function repriceGroupsOfPlan(db: EntityManager, ratePlanUuid: string): Promise<void> {
  const groups = await query(db, sql<{ uuid: string }, [string]>('SELECT uuid FROM unit_groups WHERE rate_plan_uuid = $1 ORDER BY uuid'), [ratePlanUuid]);
  for (const group of groups) await repriceUnitGroup(db, group.uuid);
}
