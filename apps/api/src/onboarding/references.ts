import { InvalidRequestException } from '@storage/platform';
import type { EntityManager } from 'typeorm';
import { query, sql, type Sql } from '@storage/persistence';
import type { FacilityScope } from './facility-setup.service';

/** The uuids among $1 of rows in scope $2 (the portfolio, or the facility). */
type InScope = Sql<{ uuid: string }, [uuids: readonly string[], scopeUuid: string]>;

interface Referenced {
  /** The record, as a message names it. */
  what: string;
  /** Whose rows the caller's records may use: the portfolio's (portfolio-wide tables) or the facility's. */
  scope: 'portfolio' | 'facility';
  rows: InScope;
}

/** The records a body may point into, one statement each. */
const REFERENCED = {
  unitType: { what: 'unit type', scope: 'portfolio', rows: sql('SELECT uuid FROM unit_types WHERE uuid = ANY($1::uuid[]) AND portfolio_uuid = $2') },
  amenity: { what: 'amenity', scope: 'portfolio', rows: sql('SELECT uuid FROM amenities WHERE uuid = ANY($1::uuid[]) AND portfolio_uuid = $2') },
  ratePlan: { what: 'rate plan', scope: 'portfolio', rows: sql('SELECT uuid FROM rate_plans WHERE uuid = ANY($1::uuid[]) AND portfolio_uuid = $2') },
  serviceItemType: {
    what: 'item type of kind SERVICE',
    scope: 'portfolio',
    rows: sql("SELECT uuid FROM item_types WHERE uuid = ANY($1::uuid[]) AND portfolio_uuid = $2 AND kind = 'SERVICE'"),
  },
  coverageItemType: {
    what: 'item type of kind COVERAGE',
    scope: 'portfolio',
    rows: sql("SELECT uuid FROM item_types WHERE uuid = ANY($1::uuid[]) AND portfolio_uuid = $2 AND kind = 'COVERAGE'"),
  },
  sizeAndTypeGroup: {
    what: 'size-and-type group',
    scope: 'facility',
    rows: sql('SELECT uuid FROM size_and_type_groups WHERE uuid = ANY($1::uuid[]) AND facility_uuid = $2'),
  },
  unitGroup: { what: 'unit group', scope: 'facility', rows: sql('SELECT uuid FROM unit_groups WHERE uuid = ANY($1::uuid[]) AND facility_uuid = $2') },
} satisfies Record<string, Referenced>;

/**
 * Refuses (400 naming the field) uuids that name no record the caller may use. The foreign keys only check that the
 * row exists, in any portfolio and of any kind: a reference into another portfolio or facility would otherwise be
 * stored and later read as this portfolio's.
 */
export async function requireReferences(
  db: EntityManager,
  scope: FacilityScope,
  field: string,
  uuids: readonly string[],
  referenced: keyof typeof REFERENCED,
): Promise<void> {
  if (uuids.length === 0) return;
  const { what, scope: of, rows }: Referenced = REFERENCED[referenced];
  const found = new Set((await query(db, rows, [uuids, of === 'portfolio' ? scope.portfolioUuid : scope.facilityUuid])).map((row) => row.uuid));
  const missing = uuids.filter((uuid) => !found.has(uuid.toLowerCase()));
  if (missing.length === 0) return;
  throw new InvalidRequestException(missing.map((uuid) => ({ field, message: `${field} ${uuid} is no ${what} of this ${of}` })));
}
