import { ConflictException } from '@nestjs/common';
import type { UpsertOutcome } from '@storage/persistence';
import type { Outcome } from './catalog.dto';

/**
 * What a record's write answers the client (the typed upserts of `catalog-rows.ts` and `facility-rows.ts`): a uuid
 * taken by a record of another owner is 409, never overwritten. `what` names the record for the message: "Facility".
 */
export function recordOutcome(what: string, uuid: string, outcome: UpsertOutcome): Outcome {
  if (outcome === 'taken') throw new ConflictException(`${what} ${uuid} is already used elsewhere; choose another uuid.`);
  return outcome;
}

/** The outcome of several writes making up one record (its row, then its links): created wins, then updated. */
export function combine(first: Outcome, ...rest: boolean[]): Outcome {
  if (first !== 'unchanged') return first;
  return rest.some(Boolean) ? 'updated' : 'unchanged';
}
