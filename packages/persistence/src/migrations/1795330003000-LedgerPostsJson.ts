import type { MigrationInterface, QueryRunner } from 'typeorm';

const COLUMNS = `uuid uuid, rental_record_uuid uuid, kind ledger_entry_kind, description text, amount_in_pennies integer, posted_on date,
               due_on date, period_from date, period_to date, applies_to uuid, item_type_uuid uuid, promotion_uuid uuid,
               payment_uuid uuid, charge_key text`;

const INSERT = `INSERT INTO rental_ledger_entries AS l (uuid, rental_record_uuid, kind, description, amount_in_pennies, posted_on, due_on, period_from,
                                                period_to, applies_to, item_type_uuid, promotion_uuid, payment_uuid, charge_key)
        SELECT coalesce(e.uuid, gen_random_uuid()), e.rental_record_uuid, e.kind, e.description, e.amount_in_pennies, e.posted_on, e.due_on,
               e.period_from, e.period_to, e.applies_to, e.item_type_uuid, e.promotion_uuid, e.payment_uuid, e.charge_key`;

const CONFLICT_AND_RETURN = `ON CONFLICT (rental_record_uuid, charge_key) WHERE charge_key IS NOT NULL DO NOTHING
        RETURNING l.uuid, l.rental_record_uuid, l.amount_in_pennies, l.charge_key`;

const RETURNS = 'RETURNS TABLE (entry_uuid uuid, rental_record_uuid uuid, amount_in_pennies integer, charge_key text) LANGUAGE sql';

/**
 * `rental_ledger_post` takes its entries as `json`, read into rows in one pass (`json_to_recordset`), instead of
 * `jsonb`, whose binary form was built for every entry only to be read once: 10.6 → 7.8 µs an entry (100,000 rent
 * entries, measured alone). Same entries, same order, same charge keys.
 */
export class LedgerPostsJson1795330003000 implements MigrationInterface {
  name = 'LedgerPostsJson1795330003000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION "rental_ledger_post"(entries json) ${RETURNS} AS $$
        ${INSERT}
          FROM ROWS FROM (json_to_recordset(coalesce(entries, '[]')) AS (${COLUMNS})) WITH ORDINALITY
               AS e(uuid, rental_record_uuid, kind, description, amount_in_pennies, posted_on, due_on, period_from, period_to, applies_to,
                    item_type_uuid, promotion_uuid, payment_uuid, charge_key, n)
         ORDER BY e.n
        ${CONFLICT_AND_RETURN}
      $$`);
    await queryRunner.query(`DROP FUNCTION "rental_ledger_post"(jsonb)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE FUNCTION "rental_ledger_post"(entries jsonb) ${RETURNS} AS $$
        ${INSERT}
          FROM jsonb_array_elements(coalesce(entries, '[]')) WITH ORDINALITY AS a(value, n), jsonb_to_record(a.value) AS e(${COLUMNS})
         ORDER BY a.n
        ${CONFLICT_AND_RETURN}
      $$`);
    await queryRunner.query(`DROP FUNCTION "rental_ledger_post"(json)`);
  }
}
