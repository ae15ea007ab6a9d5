import { randomInt } from 'node:crypto';
import type { EntityManager } from 'typeorm';

const ATTEMPTS = 20;

/** A new six-digit gate code for the rental, unique within its facility. */
export async function issueGateCode(db: EntityManager, facilityUuid: string, rentalRecordUuid: string): Promise<string> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const code = String(randomInt(100_000, 1_000_000));
    // ON CONFLICT keeps the transaction usable when the code is taken: we simply draw again.
    const rows: { code: string }[] = await db.query(
      `INSERT INTO gate_codes (facility_uuid, rental_record_uuid, code) VALUES ($1, $2, $3)
       ON CONFLICT (facility_uuid, code) DO NOTHING RETURNING code`,
      [facilityUuid, rentalRecordUuid, code],
    );
    if (rows[0] !== undefined) return rows[0].code;
  }
  throw new Error(`no free gate code found at facility ${facilityUuid} after ${ATTEMPTS} draws`);
}

/** A transferred tenant keeps their code: it moves to the new rental (same facility). */
export async function moveGateCode(db: EntityManager, fromRentalUuid: string, toRentalUuid: string): Promise<void> {
  await db.query('UPDATE gate_codes SET rental_record_uuid = $2 WHERE rental_record_uuid = $1', [fromRentalUuid, toRentalUuid]);
}

/** What is shown instead of a suspended code: never a valid code (codes are digits), and says why. */
const SUSPENDED_GATE_CODE = 'SUSPENDED';

/**
 * The gate code as every reader shows it (operations 3 and 14, the signed lease page), a SQL expression over
 * `gate_codes g`: SUSPENDED_GATE_CODE while the delinquency scheduler holds it suspended (a row in
 * `gate_code_suspensions`, from OVERLOCK until PAID or written off), else the code; null with no code row (a
 * LEFT JOIN of a moved-out rental). README, Decisions.
 */
export const SHOWN_GATE_CODE_SQL = `CASE WHEN EXISTS (SELECT 1 FROM gate_code_suspensions s WHERE s.rental_record_uuid = g.rental_record_uuid)
            THEN '${SUSPENDED_GATE_CODE}' ELSE g.code END`;
