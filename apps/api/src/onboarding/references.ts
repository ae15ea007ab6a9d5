import { InvalidRequestException } from '@storage/platform';
import type { EntityManager } from 'typeorm';
import { query, sql } from '@storage/persistence';

/** The tables a body may point into, by the name a message gives their records. */
const RECORD_NAMES = {
  unit_types: 'unit type',
  amenities: 'amenity',
  rate_plans: 'rate plan',
  item_types: 'item type',
  size_and_type_groups: 'size-and-type group',
  unit_groups: 'unit group',
} as const;

/** A table a body may point into, and which rows of it the caller's records may use. */
export interface Reference {
  table: keyof typeof RECORD_NAMES;
  /** Rows of this portfolio (portfolio-wide tables) or of this facility. */
  within: { portfolioUuid: string } | { facilityUuid: string };
  /** An item type of this kind only. */
  kind?: 'SERVICE' | 'COVERAGE';
}

/**
 * Refuses (400 naming the field) uuids that name no record the caller may use. The foreign keys (migration
 * ForeignKeys) only check that the row exists, in any portfolio and of any kind: a reference into another portfolio
 * or facility would otherwise be stored and later read as this portfolio's.
 * `reference.table` is one of RECORD_NAMES' keys, never the caller's text.
 */
export async function requireReferences(db: EntityManager, field: string, uuids: readonly string[], reference: Reference): Promise<void> {
  if (uuids.length === 0) return;
  const [column, owner] =
    'portfolioUuid' in reference.within ? ['portfolio_uuid', reference.within.portfolioUuid] : ['facility_uuid', reference.within.facilityUuid];
  const kind = reference.kind === undefined ? '' : ` AND kind = '${reference.kind}'`;
  const rows = await query(db, sql<{ uuid: string }>(`SELECT uuid FROM ${reference.table} WHERE uuid = ANY($1::uuid[]) AND ${column} = $2${kind}`), [
    uuids,
    owner,
  ]);
  const found = new Set(rows.map((row) => row.uuid));
  const missing = uuids.filter((uuid) => !found.has(uuid.toLowerCase()));
  if (missing.length === 0) return;
  const what = `${RECORD_NAMES[reference.table]}${reference.kind === undefined ? '' : ` of kind ${reference.kind}`}`;
  throw new InvalidRequestException(
    missing.map((uuid) => ({ field, message: `${field} ${uuid} is no ${what} of this ${column === 'portfolio_uuid' ? 'portfolio' : 'facility'}` })),
  );
}
