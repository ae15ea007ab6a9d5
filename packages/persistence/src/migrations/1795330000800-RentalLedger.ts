import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every rental's money as an append-only ledger (owner: `@storage/rental-ledger`). A rental's
 * `balance_in_pennies` is the sum of its entries, kept by a statement-level trigger on insert in the same
 * transaction, so no writer can post an entry and forget the balance. Entries are never updated; they go only
 * with their rental.
 *
 * Signs: an entry that adds to what is owed is positive and has a due date (charges, and refunds, due the day
 * they are paid out); a credit is negative with no due date, and a promotion's credit names the charge it nets
 * (`applies_to`). `charge_key` makes a charge exactly once per rental (one rent per period, one late fee per
 * episode), whatever reruns or replicas do.
 *
 * Rentals that exist already get one OPENING_BALANCE entry for a balance that is not zero, due when the old
 * model counted it due (the delinquency's past-due date, else the next due date), so the invariant holds from the
 * first day. The entries are written before the trigger exists, so the balance is not counted twice.
 *
 * Then only the ledger moves a balance: a rental is inserted at zero, and any other write of the column is refused.
 */
export class RentalLedger1795330000800 implements MigrationInterface {
  name = 'RentalLedger1795330000800';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TYPE "ledger_entry_kind" AS ENUM ('OPENING_BALANCE', 'RENT', 'MOVE_IN_PRORATION', 'SERVICE_FEE', 'COVERAGE_PREMIUM',
        'LATE_FEE', 'PROMOTION_CREDIT', 'PAYMENT', 'TRANSFER_IN', 'TRANSFER_OUT', 'WRITE_OFF', 'AUCTION_PROCEEDS', 'REFUND')`);
    await queryRunner.query(`
      CREATE TABLE "rental_ledger_entries" (
        "uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        "seq" bigserial NOT NULL,
        "rental_record_uuid" uuid NOT NULL REFERENCES "rental_records" ("uuid") ON DELETE CASCADE,
        "kind" "ledger_entry_kind" NOT NULL,
        "description" text NOT NULL,
        "amount_in_pennies" integer NOT NULL,
        "posted_on" date NOT NULL,
        "due_on" date,
        "period_from" date,
        "period_to" date,
        "applies_to" uuid REFERENCES "rental_ledger_entries" ("uuid") ON DELETE CASCADE,
        "item_type_uuid" uuid,
        "promotion_uuid" uuid,
        "payment_uuid" uuid,
        "charge_key" text,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "rental_ledger_entries_sign" CHECK (
          (amount_in_pennies > 0 AND due_on IS NOT NULL AND applies_to IS NULL) OR (amount_in_pennies < 0 AND due_on IS NULL)),
        CONSTRAINT "rental_ledger_entries_kind_sign" CHECK (CASE
          WHEN kind IN ('RENT', 'MOVE_IN_PRORATION', 'SERVICE_FEE', 'COVERAGE_PREMIUM', 'LATE_FEE', 'REFUND') THEN amount_in_pennies > 0
          WHEN kind IN ('PROMOTION_CREDIT', 'PAYMENT', 'WRITE_OFF', 'AUCTION_PROCEEDS') THEN amount_in_pennies < 0
          ELSE true END),
        CONSTRAINT "rental_ledger_entries_promotion_credit" CHECK ((kind = 'PROMOTION_CREDIT') = (applies_to IS NOT NULL)),
        CONSTRAINT "rental_ledger_entries_period" CHECK ((period_from IS NULL) = (period_to IS NULL) AND (period_from IS NULL OR period_from < period_to))
      )`);
    await queryRunner.query(`CREATE UNIQUE INDEX "rental_ledger_entries_rental_seq" ON "rental_ledger_entries" ("rental_record_uuid", "seq")`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "rental_ledger_entries_charge_key" ON "rental_ledger_entries" ("rental_record_uuid", "charge_key") WHERE "charge_key" IS NOT NULL`,
    );
    await queryRunner.query(`CREATE INDEX "rental_ledger_entries_applies_to" ON "rental_ledger_entries" ("applies_to") WHERE "applies_to" IS NOT NULL`);

    await queryRunner.query(`
      INSERT INTO rental_ledger_entries (rental_record_uuid, kind, description, amount_in_pennies, posted_on, due_on)
      SELECT r.uuid, 'OPENING_BALANCE', 'Balance before the ledger', r.balance_in_pennies, current_date,
             CASE WHEN r.balance_in_pennies > 0 THEN coalesce(d.past_due_since, r.next_due_date) END
        FROM rental_records r LEFT JOIN delinquencies d ON d.rental_record_uuid = r.uuid
       WHERE r.balance_in_pennies <> 0
       ORDER BY r.uuid`);

    // The one insert of entries, for the package's functions and for statements that post among other writes
    // (a batch of payments, the business-day transition): each entry names its rental; entries are written in the
    // order given, and one whose charge key its rental has already is skipped.
    await queryRunner.query(`
      CREATE FUNCTION "rental_ledger_post"(entries jsonb)
      RETURNS TABLE (entry_uuid uuid, rental_record_uuid uuid, amount_in_pennies integer, charge_key text) LANGUAGE sql AS $$
        INSERT INTO rental_ledger_entries AS l (uuid, rental_record_uuid, kind, description, amount_in_pennies, posted_on, due_on, period_from,
                                                period_to, applies_to, item_type_uuid, promotion_uuid, payment_uuid, charge_key)
        SELECT coalesce(e.uuid, gen_random_uuid()), e.rental_record_uuid, e.kind, e.description, e.amount_in_pennies, e.posted_on, e.due_on,
               e.period_from, e.period_to, e.applies_to, e.item_type_uuid, e.promotion_uuid, e.payment_uuid, e.charge_key
          FROM jsonb_array_elements(coalesce(entries, '[]')) WITH ORDINALITY AS a(value, n),
               jsonb_to_record(a.value) AS e(uuid uuid, rental_record_uuid uuid, kind ledger_entry_kind, description text, amount_in_pennies integer,
               posted_on date, due_on date, period_from date, period_to date, applies_to uuid, item_type_uuid uuid, promotion_uuid uuid,
               payment_uuid uuid, charge_key text)
         ORDER BY a.n
        ON CONFLICT (rental_record_uuid, charge_key) WHERE charge_key IS NOT NULL DO NOTHING
        RETURNING l.uuid, l.rental_record_uuid, l.amount_in_pennies, l.charge_key
      $$`);

    // Summed per rental and applied in rental order, so two statements posting to the same rentals lock them alike.
    await queryRunner.query(`
      CREATE FUNCTION "rental_ledger_balance"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE rental_records r SET balance_in_pennies = r.balance_in_pennies + s.amount, updated_at = now()
          FROM (SELECT rental_record_uuid, sum(amount_in_pennies) AS amount FROM added GROUP BY 1 ORDER BY 1) s
         WHERE r.uuid = s.rental_record_uuid;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER "rental_ledger_balance" AFTER INSERT ON "rental_ledger_entries"
        REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION rental_ledger_balance()`);
    await queryRunner.query(`
      CREATE FUNCTION "rental_ledger_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' AND NOT EXISTS (SELECT 1 FROM rental_records WHERE uuid = OLD.rental_record_uuid) THEN
          RETURN OLD;
        END IF;
        RAISE EXCEPTION 'rental_ledger_entries is append-only: post a correcting entry instead of %', TG_OP USING ERRCODE = 'restrict_violation';
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER "rental_ledger_append_only" BEFORE UPDATE OR DELETE ON "rental_ledger_entries"
        FOR EACH ROW EXECUTE FUNCTION rental_ledger_append_only()`);
    // Only the ledger moves a balance: a rental starts at zero, and a write of the column that does not come from
    // the ledger's trigger (trigger depth 0) is refused, so no writer can change a balance and skip the ledger.
    await queryRunner.query(`
      CREATE FUNCTION "rental_balance_kept_by_ledger"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'rental_records.balance_in_pennies is the sum of the rental''s ledger entries: post an entry (@storage/rental-ledger)'
          USING ERRCODE = 'restrict_violation';
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER "rental_balance_starts_at_zero" BEFORE INSERT ON "rental_records"
        FOR EACH ROW WHEN (NEW.balance_in_pennies <> 0) EXECUTE FUNCTION rental_balance_kept_by_ledger()`);
    await queryRunner.query(`
      CREATE TRIGGER "rental_balance_kept_by_ledger" BEFORE UPDATE OF "balance_in_pennies" ON "rental_records"
        FOR EACH ROW WHEN (OLD.balance_in_pennies IS DISTINCT FROM NEW.balance_in_pennies AND pg_trigger_depth() = 0)
        EXECUTE FUNCTION rental_balance_kept_by_ledger()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TRIGGER "rental_balance_kept_by_ledger" ON "rental_records"`);
    await queryRunner.query(`DROP TRIGGER "rental_balance_starts_at_zero" ON "rental_records"`);
    await queryRunner.query(`DROP FUNCTION "rental_balance_kept_by_ledger"()`);
    await queryRunner.query(`DROP FUNCTION "rental_ledger_post"(jsonb)`);
    await queryRunner.query(`DROP TABLE "rental_ledger_entries"`);
    await queryRunner.query(`DROP FUNCTION "rental_ledger_append_only"()`);
    await queryRunner.query(`DROP FUNCTION "rental_ledger_balance"()`);
    await queryRunner.query(`DROP TYPE "ledger_entry_kind"`);
  }
}
