import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Delinquency counts days past due from the due date of the rental's oldest charge not covered by payments
 * (`pastDueSince` in `@storage/domain`): kept in `rental_records.oldest_open_due_on` by the ledger's balance
 * trigger, in the same statement as the balance, so the business-day run finds its candidates with an index-free
 * column comparison and no writer can forget it. Only the ledger writes it, as the balance.
 *
 * Payments and other credits cover the oldest charges first, so what is open are the newest charges (by due date,
 * then posting order) adding up to the balance: the oldest open one is the first, walking back from the newest,
 * where their sum reaches the balance. A promotion's credit nets its own charge before that.
 *
 * The function is VOLATILE on purpose: its query then takes a snapshot of its own when it runs. The trigger's
 * update of a rental waits for another posting's lock on it and is then re-evaluated on the row that posting
 * committed; the balance comes from that row, and the entries must come from as late a snapshot, not from the
 * statement's (a STABLE function's), which misses the entries committed while it waited.
 *
 * What a tenant is charged at move-in is the rental's first period, starting on its start date, net of its
 * promotions (`rental_ledger_move_in_due`), as the lease page and operation 3 show it.
 *
 * A transfer opens a new rental that goes on with the tenancy's billing: `tenancy_start_date` keeps the day the
 * tenancy began (null: the rental's own start date), which anchors its billing day and the months promotions count.
 * Rentals that transfers opened before it existed kept the old billing day with a start date of another day: they
 * get the last date on or before their start whose day is their billing day, so billing can go on with them.
 *
 * Rent changes get a table of their own: a change takes effect from the first billing period that starts on or
 * after its effective date, so billing needs each change with its date, not only the rent now.
 */
export class LedgerOldestOpenCharge1795330000900 implements MigrationInterface {
  name = 'LedgerOldestOpenCharge1795330000900';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "rental_records" ADD "oldest_open_due_on" date, ADD "tenancy_start_date" date`);
    await queryRunner.query(`
      CREATE FUNCTION "rental_ledger_oldest_open_due"(rental uuid, balance integer) RETURNS date LANGUAGE sql VOLATILE AS $$
        SELECT c.due_on FROM (
          SELECT n.due_on, sum(n.net) OVER (ORDER BY n.due_on DESC, n.seq DESC) AS open_from_here
            FROM (SELECT e.due_on, e.seq,
                         e.amount_in_pennies + coalesce((SELECT sum(x.amount_in_pennies) FROM rental_ledger_entries x WHERE x.applies_to = e.uuid), 0) AS net
                    FROM rental_ledger_entries e
                   WHERE e.rental_record_uuid = rental AND e.due_on IS NOT NULL) n
           WHERE n.net > 0) c
         WHERE balance > 0 AND c.open_from_here >= balance
         ORDER BY c.open_from_here LIMIT 1
      $$`);
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION "rental_ledger_balance"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE rental_records r SET balance_in_pennies = r.balance_in_pennies + s.amount,
               oldest_open_due_on = rental_ledger_oldest_open_due(r.uuid, (r.balance_in_pennies + s.amount)::integer), updated_at = now()
          FROM (SELECT rental_record_uuid, sum(amount_in_pennies) AS amount FROM added GROUP BY 1 ORDER BY 1) s
         WHERE r.uuid = s.rental_record_uuid;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`
      UPDATE rental_records SET tenancy_start_date = CASE
          WHEN extract(day FROM start_date) >= billing_day_of_month
            THEN make_date(extract(year FROM start_date)::int, extract(month FROM start_date)::int, billing_day_of_month)
          ELSE (make_date(extract(year FROM start_date)::int, extract(month FROM start_date)::int, billing_day_of_month) - interval '1 month')::date
        END
       WHERE least(extract(day FROM start_date)::int, 28) <> billing_day_of_month`);
    await queryRunner.query(`
      CREATE FUNCTION "rental_ledger_move_in_due"(rental uuid) RETURNS integer LANGUAGE sql STABLE AS $$
        SELECT coalesce(sum(e.amount_in_pennies), 0)::integer
          FROM rental_ledger_entries e JOIN rental_records r ON r.uuid = e.rental_record_uuid
          LEFT JOIN rental_ledger_entries charge ON charge.uuid = e.applies_to
         WHERE e.rental_record_uuid = rental AND coalesce(e.period_from, charge.period_from) = r.start_date
      $$`);
    await queryRunner.query(
      `UPDATE rental_records SET oldest_open_due_on = rental_ledger_oldest_open_due(uuid, balance_in_pennies) WHERE balance_in_pennies > 0`,
    );
    await queryRunner.query(`DROP TRIGGER "rental_balance_kept_by_ledger" ON "rental_records"`);
    await queryRunner.query(`DROP TRIGGER "rental_balance_starts_at_zero" ON "rental_records"`);
    await queryRunner.query(`
      CREATE TRIGGER "rental_balance_starts_at_zero" BEFORE INSERT ON "rental_records"
        FOR EACH ROW WHEN (NEW.balance_in_pennies <> 0 OR NEW.oldest_open_due_on IS NOT NULL) EXECUTE FUNCTION rental_balance_kept_by_ledger()`);
    await queryRunner.query(`
      CREATE TRIGGER "rental_balance_kept_by_ledger" BEFORE UPDATE OF "balance_in_pennies", "oldest_open_due_on" ON "rental_records"
        FOR EACH ROW WHEN ((OLD.balance_in_pennies IS DISTINCT FROM NEW.balance_in_pennies OR OLD.oldest_open_due_on IS DISTINCT FROM NEW.oldest_open_due_on)
                           AND pg_trigger_depth() = 0)
        EXECUTE FUNCTION rental_balance_kept_by_ledger()`);

    await queryRunner.query(`
      CREATE TABLE "rental_rent_changes" (
        "uuid" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        "rental_record_uuid" uuid NOT NULL REFERENCES "rental_records" ("uuid") ON DELETE CASCADE,
        "effective_date" date NOT NULL,
        "rent_in_pennies" integer NOT NULL CHECK ("rent_in_pennies" >= 0),
        "previous_rent_in_pennies" integer NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`CREATE INDEX "rental_rent_changes_rental" ON "rental_rent_changes" ("rental_record_uuid", "created_at")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "rental_rent_changes"`);
    await queryRunner.query(`DROP TRIGGER "rental_balance_kept_by_ledger" ON "rental_records"`);
    await queryRunner.query(`DROP TRIGGER "rental_balance_starts_at_zero" ON "rental_records"`);
    await queryRunner.query(`
      CREATE TRIGGER "rental_balance_starts_at_zero" BEFORE INSERT ON "rental_records"
        FOR EACH ROW WHEN (NEW.balance_in_pennies <> 0) EXECUTE FUNCTION rental_balance_kept_by_ledger()`);
    await queryRunner.query(`
      CREATE TRIGGER "rental_balance_kept_by_ledger" BEFORE UPDATE OF "balance_in_pennies" ON "rental_records"
        FOR EACH ROW WHEN (OLD.balance_in_pennies IS DISTINCT FROM NEW.balance_in_pennies AND pg_trigger_depth() = 0)
        EXECUTE FUNCTION rental_balance_kept_by_ledger()`);
    await queryRunner.query(`
      CREATE OR REPLACE FUNCTION "rental_ledger_balance"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE rental_records r SET balance_in_pennies = r.balance_in_pennies + s.amount, updated_at = now()
          FROM (SELECT rental_record_uuid, sum(amount_in_pennies) AS amount FROM added GROUP BY 1 ORDER BY 1) s
         WHERE r.uuid = s.rental_record_uuid;
        RETURN NULL;
      END $$`);
    await queryRunner.query(`DROP FUNCTION "rental_ledger_move_in_due"(uuid)`);
    await queryRunner.query(`DROP FUNCTION "rental_ledger_oldest_open_due"(uuid, integer)`);
    await queryRunner.query(`ALTER TABLE "rental_records" DROP COLUMN "oldest_open_due_on", DROP COLUMN "tenancy_start_date"`);
  }
}
