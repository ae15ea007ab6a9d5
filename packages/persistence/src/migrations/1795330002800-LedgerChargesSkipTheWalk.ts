import type { MigrationInterface, QueryRunner } from 'typeorm';
import { balanceTrigger, CHARGES_SKIP_THE_WALK_TRIGGER, WALK_TO_OLDEST_OPEN } from './shared/ledger-balance';

/**
 * A posting of charges alone, each due after every charge the rental already has, leaves the oldest open charge where
 * it was, or, on a rental that owed nothing, makes it the earliest of the new charges: the balance trigger then
 * answers without the walk. That is billing's every posting, and the walk was half the trigger's cost per rental.
 *
 * Why it is the walk's answer: the walk goes newest first, summing charges (net of their credits) until the sum
 * reaches the balance. Charges alone carry no credits, so no net changes, and each new one is positive (the sign
 * check). Each is due after every existing charge, so the walk meets all of them first. Owing nothing before, the
 * new charges sum to the balance: the walk stops at the earliest. Owing something before, they add the same amount
 * to the sum and to the balance: the walk stops where it stopped before, the oldest open charge already stored.
 * Anything else (a payment, a credit, a charge due on or before one the rental has, a rental in credit) walks, as
 * before. The check reads the statement's own charges and the one before them through the index, and never looks
 * rows up among the statement's: without a hash (a plan made for a bulk insert, kept by the session) that compares
 * every row with every other.
 */
export class LedgerChargesSkipTheWalk1795330002800 implements MigrationInterface {
  name = 'LedgerChargesSkipTheWalk1795330002800';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(CHARGES_SKIP_THE_WALK_TRIGGER);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(balanceTrigger(WALK_TO_OLDEST_OPEN));
  }
}
