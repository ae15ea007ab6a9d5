import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Api: the promotions applied to a rental, frozen at signing (see the RentalPromotion entity). */
export class RentalPromotions1795330000300 implements MigrationInterface {
  name = 'RentalPromotions1795330000300';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "rental_promotions" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "rental_record_uuid" uuid NOT NULL, "promotion_uuid" uuid NOT NULL, "name" text NOT NULL, "family" "public"."promotion_family" NOT NULL, "item_type_uuid" uuid, "discount_type" "public"."promotion_discount_type" NOT NULL, "percentage" numeric(5,2), "amount_in_pennies" integer, "month_starts" integer NOT NULL, "duration_in_months" integer NOT NULL, "discount_in_pennies" integer NOT NULL, "applied_on" date NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_eeaf656433dc1bbe9f9578aadd3" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_be49fd76ef54fcb5e838e8bc7b" ON "rental_promotions" ("rental_record_uuid", "promotion_uuid") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_be49fd76ef54fcb5e838e8bc7b"`);
    await queryRunner.query(`DROP TABLE "rental_promotions"`);
  }
}
