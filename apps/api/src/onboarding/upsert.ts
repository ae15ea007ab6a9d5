import { ConflictException } from '@nestjs/common';
import { upsertOwnedRow, type OwnedRow } from '@storage/persistence';
import type { EntityManager } from 'typeorm';
import type { Outcome } from './catalog.dto';

export interface UpsertSpec extends OwnedRow {
  /** What the record is, for messages: "Facility". */
  what: string;
}

/**
 * Creates the record or brings it to `values` (`upsertOwnedRow` of `@storage/persistence`), and says which. A uuid
 * taken by a record of another owner is 409, never overwritten.
 */
export async function upsertRecord(db: EntityManager, spec: UpsertSpec): Promise<Outcome> {
  const outcome = await upsertOwnedRow(db, spec);
  if (outcome === 'taken') throw new ConflictException(`${spec.what} ${spec.uuid} is already used elsewhere; choose another uuid.`);
  return outcome;
}

/** The outcome of several writes making up one record (its row, then its links): created wins, then updated. */
export function combine(first: Outcome, ...rest: boolean[]): Outcome {
  if (first !== 'unchanged') return first;
  return rest.some(Boolean) ? 'updated' : 'unchanged';
}
