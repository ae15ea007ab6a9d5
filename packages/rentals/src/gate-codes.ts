import { randomInt } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { query, sql } from '@storage/persistence';

const ATTEMPTS = 20;

// ON CONFLICT keeps the transaction usable when the code is taken: we simply draw again.
const INSERT_GATE_CODE = sql<{ code: string }, [string, string, string]>(
  `INSERT INTO gate_codes (facility_uuid, rental_record_uuid, code) VALUES ($1, $2, $3)
       ON CONFLICT (facility_uuid, code) DO NOTHING RETURNING code`,
);

/** A new six-digit gate code for the rental, unique within its facility. */
export async function issueGateCode(db: EntityManager, facilityUuid: string, rentalRecordUuid: string): Promise<string> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const code = String(randomInt(100_000, 1_000_000));
    const rows = await query(db, INSERT_GATE_CODE, [facilityUuid, rentalRecordUuid, code]);
    if (rows[0] !== undefined) return rows[0].code;
  }
  throw new Error(`no free gate code found at facility ${facilityUuid} after ${ATTEMPTS} draws`);
}
