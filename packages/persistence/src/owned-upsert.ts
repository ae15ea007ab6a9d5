import { query, type Queryable } from './query';
import type { Sql } from './sql';

/** What an upsert did; `taken` when the uuid is a row of another owner, which is never overwritten. */
export type UpsertOutcome = 'created' | 'updated' | 'unchanged' | 'taken';

/**
 * A row written by the caller's uuid (a retry of the same write finds the row it created), stated by the table's
 * owner as two typed statements whose first two values are the row's uuid and its owner's uuid (the facility of a
 * unit, the portfolio of a unit type).
 */
export interface OwnedUpsert<Values extends readonly [uuid: string, owner: string, ...rest: unknown[]]> {
  /**
   * Creates the row, or brings it to the values when it is the same owner's and a value differs, in one statement
   * (concurrent retries cannot both insert): `INSERT … ON CONFLICT (uuid) DO UPDATE … WHERE <same owner> AND
   * ROW(…) IS DISTINCT FROM ROW(EXCLUDED.…) RETURNING (xmax = 0) AS inserted`. A row answered is a write.
   */
  readonly write: Sql<{ inserted: boolean }, Values>;
  /** Whether the row of uuid $1 is owner $2's: `SELECT <owner column> = $2 AS owned FROM <table> WHERE uuid = $1`. */
  readonly owned: Sql<{ owned: boolean }, readonly [uuid: string, owner: string]>;
}

/**
 * Runs an owner's upsert and says what it did: a retry changes nothing, not even the row version, and a uuid of
 * another owner's row is `taken`, never overwritten. The owned check is a second statement, so it sees a row a
 * concurrent writer committed after the write's snapshot.
 */
export async function upsertOwned<Values extends readonly [uuid: string, owner: string, ...rest: unknown[]]>(
  db: Queryable,
  upsert: OwnedUpsert<Values>,
  values: Values,
): Promise<UpsertOutcome> {
  const [written] = await query(db, upsert.write, values);
  if (written !== undefined) return written.inserted ? 'created' : 'updated';
  const [existing] = await query(db, upsert.owned, [values[0], values[1]]);
  return existing?.owned === true ? 'unchanged' : 'taken';
}
