import { fragment } from '@storage/persistence';

/** What is shown instead of a suspended code: never a valid code (codes are digits), and says why. */
const SUSPENDED_GATE_CODE = 'SUSPENDED';

/**
 * The gate code as every reader shows it (operations 3 and 14, the signed lease page), a SQL expression over
 * `gate_codes g`: SUSPENDED_GATE_CODE while the delinquency scheduler holds it suspended (a row in
 * `gate_code_suspensions`, from OVERLOCK until PAID or written off), else the code; null with no code row (a
 * LEFT JOIN of a moved-out rental). README, Decisions.
 */
export const SHOWN_GATE_CODE = fragment(`CASE WHEN EXISTS (SELECT 1 FROM gate_code_suspensions s WHERE s.rental_record_uuid = g.rental_record_uuid)
            THEN '${SUSPENDED_GATE_CODE}' ELSE g.code END`);
