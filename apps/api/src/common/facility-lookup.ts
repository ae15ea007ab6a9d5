import type { EntityManager } from 'typeorm';
import { notFound } from './not-found';
import { query, sql } from '@storage/persistence';

export interface FacilityRow {
  uuid: string;
  name: string;
  timeZone: string;
}

/** The facility when it belongs to the portfolio; 404 otherwise, the same whether absent or elsewhere. */
export async function requireFacility(db: EntityManager, portfolioUuid: string, facilityUuid: string): Promise<FacilityRow> {
  const rows = await query(
    db,
    sql<FacilityRow, [string, string]>('SELECT uuid, name, time_zone AS "timeZone" FROM facilities WHERE uuid = $1 AND portfolio_uuid = $2'),
    [facilityUuid, portfolioUuid],
  );
  const facility = rows[0];
  if (facility === undefined) throw notFound('Facility', facilityUuid);
  return facility;
}
