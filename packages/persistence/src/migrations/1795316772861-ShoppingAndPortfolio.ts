import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ShoppingAndPortfolio1795316772861 implements MigrationInterface {
  name = 'ShoppingAndPortfolio1795316772861';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "amenities" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "portfolio_uuid" uuid NOT NULL, "description" text NOT NULL, "is_smart_amenity" boolean NOT NULL DEFAULT false, CONSTRAINT "PK_97727646394cf0f6f315c02b225" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_f88bc2d864addb0877e95778f5" ON "amenities"  ("portfolio_uuid") `);
    await queryRunner.query(`CREATE TYPE "public"."api_key_scope" AS ENUM('read', 'write')`);
    await queryRunner.query(
      `CREATE TABLE "api_keys" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "key_hash" text NOT NULL, "key_prefix" text NOT NULL, "label" text NOT NULL DEFAULT '', "scope" "public"."api_key_scope" NOT NULL, "portfolio_uuids" uuid array, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "revoked_at" TIMESTAMP WITH TIME ZONE, CONSTRAINT "PK_7caad710392a404f52adf8707b7" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_57384430aa1959f4578046c9b8" ON "api_keys"  ("key_hash") `);
    await queryRunner.query(`CREATE TYPE "public"."coverage_provider" AS ENUM('SAFE_LEASE', 'SECURE_LEASE', 'STORAGE_SHIELD', 'RV_PARK_N_PROTECT', 'OTHER')`);
    await queryRunner.query(
      `CREATE TABLE "coverages" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "facility_uuid" uuid NOT NULL, "item_type_uuid" uuid NOT NULL, "premium_in_pennies" integer NOT NULL, "coverage_amount_in_pennies" integer NOT NULL, "description" text NOT NULL, "provider" "public"."coverage_provider" NOT NULL, "allow_manual_changes" boolean NOT NULL DEFAULT false, "provider_description" text NOT NULL DEFAULT '', "is_default" boolean NOT NULL DEFAULT false, CONSTRAINT "PK_50454ddf6d706a9544675210a3e" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_04291b46adffade1ba48caced0" ON "coverages"  ("facility_uuid") `);
    await queryRunner.query(
      `CREATE TABLE "coverage_enrollments" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "facility_uuid" uuid NOT NULL, "rental_record_uuid" uuid NOT NULL, "coverage_uuid" uuid NOT NULL, "premium_in_pennies" integer NOT NULL, "coverage_amount_in_pennies" integer NOT NULL, "start_date" TIMESTAMP WITH TIME ZONE NOT NULL, "end_date" TIMESTAMP WITH TIME ZONE, "partner_coverage_id" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_fad9e4d750865411908f5e14fe6" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_c48366503b846df17a049df252" ON "coverage_enrollments"  ("facility_uuid") `);
    await queryRunner.query(`CREATE INDEX "IDX_8c7c88e881faf28c39b195fce8" ON "coverage_enrollments"  ("rental_record_uuid") `);
    await queryRunner.query(
      `CREATE TABLE "facilities" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "portfolio_uuid" uuid NOT NULL, "name" text NOT NULL, "address_line1" text NOT NULL, "address_line2" text, "city" text NOT NULL, "state" text NOT NULL, "zip" text NOT NULL, "country" text NOT NULL DEFAULT 'US', "phone" text NOT NULL, "operating_hours" jsonb NOT NULL, "time_zone" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_18f9631a560bb66f6315b792edb" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_14de08b6cb69b07f2a6a6a81c7" ON "facilities"  ("portfolio_uuid") `);
    await queryRunner.query(
      `CREATE TABLE "gate_codes" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "facility_uuid" uuid NOT NULL, "rental_record_uuid" uuid NOT NULL, "code" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_30fff7a21e5e56d7ce25202bf4d" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_2a177bf071c3bea53968e8adb6" ON "gate_codes"  ("rental_record_uuid") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_ed40feb19397ac6cfc46d53814" ON "gate_codes"  ("facility_uuid", "code") `);
    await queryRunner.query(`CREATE TYPE "public"."item_type_kind" AS ENUM('SERVICE', 'FEE', 'COVERAGE')`);
    await queryRunner.query(`CREATE TYPE "public"."fee_type" AS ENUM('FIXED_AMOUNT', 'PERCENTAGE')`);
    await queryRunner.query(
      `CREATE TABLE "item_types" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "portfolio_uuid" uuid NOT NULL, "name" text NOT NULL, "kind" "public"."item_type_kind" NOT NULL, "price_in_pennies" integer NOT NULL, "fee_type" "public"."fee_type" NOT NULL DEFAULT 'FIXED_AMOUNT', "is_recurring" boolean NOT NULL DEFAULT false, CONSTRAINT "PK_e0ae49a8b7f42d0fd6eaae19469" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_5a92960df484326a2dc9fe1b2a" ON "item_types"  ("portfolio_uuid") `);
    await queryRunner.query(
      `CREATE TABLE "lead_sources" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "portfolio_uuid" uuid NOT NULL, "description" text NOT NULL, CONSTRAINT "PK_d594a9abfc2fede56a75d3eb2d7" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_f33ecec4ee1b78c1b8bf8e8173" ON "lead_sources"  ("portfolio_uuid") `);
    await queryRunner.query(
      `CREATE TABLE "lead_marketing_sources" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "portfolio_uuid" uuid NOT NULL, "description" text NOT NULL, CONSTRAINT "PK_1729abef681131e4cac029f8a92" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_9a898632e674a4d08998cad609" ON "lead_marketing_sources"  ("portfolio_uuid") `);
    await queryRunner.query(`CREATE TYPE "public"."lead_status" AS ENUM('OPEN', 'LEASE_SENT', 'CONVERTED', 'LOST')`);
    await queryRunner.query(
      `CREATE TABLE "leads" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "portfolio_uuid" uuid NOT NULL, "facility_uuid" uuid NOT NULL, "unit_group_uuid" uuid, "person_uuid" uuid NOT NULL, "status" "public"."lead_status" NOT NULL DEFAULT 'OPEN', "is_for_business" boolean NOT NULL DEFAULT false, "lead_source_uuid" uuid, "lead_marketing_source_uuid" uuid, "desired_move_in_date" date, "verify_token" text, "converted_rental_record_uuid" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_a21aae71874a66ce580a302af73" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_9eb37600579143db127c02104c" ON "leads"  ("portfolio_uuid") `);
    await queryRunner.query(`CREATE INDEX "IDX_ad1926bb3a7b67d2e9dce27817" ON "leads"  ("facility_uuid") `);
    await queryRunner.query(`CREATE INDEX "IDX_d1dc2fa677f60c3ecfdab0c935" ON "leads"  ("person_uuid") `);
    await queryRunner.query(`CREATE TYPE "public"."lease_status" AS ENUM('SENT', 'SIGNED', 'VOID')`);
    await queryRunner.query(
      `CREATE TABLE "leases" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "lead_uuid" uuid NOT NULL, "facility_uuid" uuid NOT NULL, "unit_group_uuid" uuid NOT NULL, "rent_in_pennies" integer NOT NULL, "signing_token" text NOT NULL, "status" "public"."lease_status" NOT NULL DEFAULT 'SENT', "sent_at" TIMESTAMP WITH TIME ZONE NOT NULL, "signed_at" TIMESTAMP WITH TIME ZONE, "rental_record_uuid" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_98bbfd98173ac0d391117233146" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_e848bd713d65adbee82a2b3e14" ON "leases"  ("signing_token") `);
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_44a66ca2a4bf1729f559534883" ON "leases"  ("lead_uuid") WHERE status = 'SENT'`);
    await queryRunner.query(
      `CREATE TABLE "notes" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "lead_uuid" uuid NOT NULL, "note_text" character varying(1500) NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_098232e9365ec2dac9ef2f550f7" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_8ff95e7376d380eda70d4d3d57" ON "notes"  ("lead_uuid") `);
    await queryRunner.query(`CREATE TYPE "public"."contact_method" AS ENUM('email', 'sms')`);
    await queryRunner.query(
      `CREATE TABLE "notifications" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "portfolio_uuid" uuid NOT NULL, "lead_uuid" uuid, "person_uuid" uuid, "channel" "public"."contact_method" NOT NULL, "recipient" text NOT NULL, "subject" text NOT NULL, "body" text NOT NULL, "link" text, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_84989adc90ebf9f1c9b7ba66f0a" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_74b3799c366fc05bd4c4f55931" ON "notifications"  ("portfolio_uuid") `);
    await queryRunner.query(`CREATE INDEX "IDX_5d694f9264261413a995006e1f" ON "notifications"  ("lead_uuid") `);
    await queryRunner.query(`CREATE TYPE "public"."account_type" AS ENUM('PERSONAL', 'BUSINESS')`);
    await queryRunner.query(
      `CREATE TABLE "persons" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "portfolio_uuid" uuid NOT NULL, "first_name" text NOT NULL, "last_name" text NOT NULL, "email" text, "phone" text, "phone_type" text, "is_sms_enrolled" boolean NOT NULL DEFAULT false, "address_line1" text, "address_line2" text, "city" text, "state" text, "country" text, "zip" text, "id_type" text, "id_code" text, "id_state" text, "id_country" text, "id_issue_date" date, "id_expiration_date" date, "account_type" "public"."account_type" NOT NULL DEFAULT 'PERSONAL', "business_name" text, "tax_id" text, "date_of_birth" date, "alternate_contact" jsonb, "military" jsonb, "beneficiary" jsonb, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_df86913f6de25e60e6346dcf87a" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_11c18f33525f3f286c56bdabfd" ON "persons"  ("portfolio_uuid", "email") `);
    await queryRunner.query(
      `CREATE TABLE "portfolios" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "portfolio_id" text NOT NULL, "name" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_e18c2f74d293592bb1f7db3fe29" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(`CREATE UNIQUE INDEX "IDX_9303b853b1d0672da696dc70a1" ON "portfolios"  ("portfolio_id") `);
    await queryRunner.query(`CREATE TYPE "public"."promotion_tenant_type" AS ENUM('PERSONAL', 'BUSINESS', 'ALL')`);
    await queryRunner.query(`CREATE TYPE "public"."promotion_discount_type" AS ENUM('PERCENTAGE', 'AMOUNT_OFF', 'FIXED_RATE')`);
    await queryRunner.query(`CREATE TYPE "public"."promotion_family" AS ENUM('RENT', 'DISCOUNTED_SERVICE')`);
    await queryRunner.query(
      `CREATE TABLE "promotions" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "facility_uuid" uuid NOT NULL, "name" text NOT NULL, "is_auto_applied" boolean NOT NULL DEFAULT true, "tenant_type" "public"."promotion_tenant_type" NOT NULL DEFAULT 'ALL', "is_auto_pay_required" boolean NOT NULL DEFAULT false, "discount_type" "public"."promotion_discount_type" NOT NULL, "percentage" numeric(5,2), "amount_in_pennies" integer, "month_starts" integer NOT NULL DEFAULT '1', "duration_in_months" integer NOT NULL DEFAULT '1', "unit_group_uuids" uuid array NOT NULL DEFAULT '{}', "valid_from" date, "valid_to" date, "family" "public"."promotion_family" NOT NULL DEFAULT 'RENT', "item_type_uuid" uuid, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_d155814d79dbe9c19a51393f94b" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_06836ac6353e1dd6eb59158e68" ON "promotions"  ("facility_uuid") `);
    await queryRunner.query(
      `CREATE TABLE "rate_plans" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "portfolio_uuid" uuid NOT NULL, "name" text NOT NULL, "occupancy_bands" jsonb NOT NULL DEFAULT '[]', CONSTRAINT "PK_b47f7223bc9d335e53f06554208" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_1c3af972cf78e40f96a70fde7e" ON "rate_plans"  ("portfolio_uuid") `);
    await queryRunner.query(`CREATE TYPE "public"."rental_status" AS ENUM('ACTIVE', 'MOVED_OUT')`);
    await queryRunner.query(
      `CREATE TABLE "rental_records" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "portfolio_uuid" uuid NOT NULL, "facility_uuid" uuid NOT NULL, "unit_uuid" uuid NOT NULL, "unit_group_uuid" uuid NOT NULL, "person_uuid" uuid NOT NULL, "lead_uuid" uuid, "rent_in_pennies" integer NOT NULL, "balance_in_pennies" integer NOT NULL DEFAULT '0', "billing_day_of_month" smallint NOT NULL, "next_due_date" date NOT NULL, "start_date" date NOT NULL, "end_date" date, "status" "public"."rental_status" NOT NULL DEFAULT 'ACTIVE', "is_autopay_enabled" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_fe6b9ca80f05e0abb83c0f71751" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_c362e52d0159952cc056718e99" ON "rental_records"  ("portfolio_uuid") `);
    await queryRunner.query(`CREATE INDEX "IDX_8331959717190a65e01ace3adc" ON "rental_records"  ("facility_uuid") `);
    await queryRunner.query(`CREATE INDEX "IDX_c6e25cc515b8ab2683807768df" ON "rental_records"  ("unit_uuid") `);
    await queryRunner.query(`CREATE INDEX "IDX_b15f87c61c3037a0efa5b94bf9" ON "rental_records"  ("person_uuid") `);
    await queryRunner.query(`CREATE INDEX "IDX_06fbaeaa726a5ca1cdfbd6dbc0" ON "rental_records"  ("status", "next_due_date") `);
    await queryRunner.query(`CREATE INDEX "IDX_86832219740d70ac0e1a3dd582" ON "rental_records"  ("unit_group_uuid", "status") `);
    await queryRunner.query(
      `CREATE TABLE "rental_services" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "rental_record_uuid" uuid NOT NULL, "item_type_uuid" uuid NOT NULL, "description" text NOT NULL, "amount_in_pennies" integer NOT NULL, "fee_type" text NOT NULL DEFAULT 'FIXED_AMOUNT', "start_date" date NOT NULL, "end_date" date, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_4145f26a2978fcf72de47573e24" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_7b695e017f6f1f29be4584d36a" ON "rental_services"  ("rental_record_uuid") `);
    await queryRunner.query(
      `CREATE TABLE "size_and_type_groups" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "facility_uuid" uuid NOT NULL, "unit_type_uuid" uuid NOT NULL, "length" numeric(6,2) NOT NULL, "width" numeric(6,2) NOT NULL, "height" numeric(6,2) NOT NULL, CONSTRAINT "PK_2a1cbf0a1dfbaac1fa26d0ffd4a" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_7f3a1b903e1c76ca4bb15c9797" ON "size_and_type_groups"  ("facility_uuid") `);
    await queryRunner.query(
      `CREATE TABLE "unit_groups" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "facility_uuid" uuid NOT NULL, "size_and_type_group_uuid" uuid NOT NULL, "description" text NOT NULL, "tier_level" integer NOT NULL DEFAULT '1', "rate_plan_uuid" uuid NOT NULL, "base_street_rate_in_pennies" integer NOT NULL, "base_web_rate_in_pennies" integer NOT NULL, "current_street_rate_in_pennies" integer NOT NULL, "current_web_rate_in_pennies" integer NOT NULL, "can_show_unit_group_tenant_portal" boolean NOT NULL DEFAULT true, CONSTRAINT "PK_b3d6fcd2adecb92c29028ca8478" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_789c2450faddc55e76f65be014" ON "unit_groups"  ("facility_uuid") `);
    await queryRunner.query(`CREATE INDEX "IDX_a094225c4d13449d6dc7a63f92" ON "unit_groups"  ("size_and_type_group_uuid") `);
    await queryRunner.query(
      `CREATE TABLE "unit_group_amenities" ("unit_group_uuid" uuid NOT NULL, "amenity_uuid" uuid NOT NULL, CONSTRAINT "PK_f6bbd2c319c93d2a8f3a7eb1a38" PRIMARY KEY ("unit_group_uuid", "amenity_uuid"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_cdffb36d2a2cd0417c18e5b880" ON "unit_group_amenities"  ("amenity_uuid") `);
    await queryRunner.query(
      `CREATE TABLE "unit_types" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "portfolio_uuid" uuid NOT NULL, "description" text NOT NULL, CONSTRAINT "PK_8eae6f8ce2b3defaa15a71abf8b" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_17e7cba198f74aed18d8ed5ed4" ON "unit_types"  ("portfolio_uuid") `);
    await queryRunner.query(`CREATE TYPE "public"."unit_status" AS ENUM('vacant', 'occupied')`);
    await queryRunner.query(
      `CREATE TABLE "units" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "facility_uuid" uuid NOT NULL, "unit_group_uuid" uuid NOT NULL, "name" text NOT NULL, "floor" text NOT NULL DEFAULT '1', "status" "public"."unit_status" NOT NULL DEFAULT 'vacant', CONSTRAINT "PK_eaa0ef79c1a1f4c738b819ab00c" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_0ffad72d198476311a57be51af" ON "units"  ("facility_uuid") `);
    await queryRunner.query(`CREATE INDEX "IDX_a5087ed4e4c19757ed6800cace" ON "units"  ("unit_group_uuid", "status") `);
    await queryRunner.query(
      `CREATE TABLE "vehicles" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "facility_uuid" uuid NOT NULL, "rental_record_uuid" uuid NOT NULL, "type" text NOT NULL, "license_plate_number" text NOT NULL, "make" text NOT NULL, "model" text NOT NULL, "vin" text NOT NULL, "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_44081a0503cec549614d57eba9a" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_8223e5cc4486e72d127a4ba872" ON "vehicles"  ("facility_uuid") `);
    await queryRunner.query(`CREATE INDEX "IDX_178e98375b2edacd79204968c4" ON "vehicles"  ("rental_record_uuid") `);
    await queryRunner.query(
      `CREATE TABLE "tenant_verification_codes" ("uuid" uuid NOT NULL DEFAULT gen_random_uuid(), "facility_uuid" uuid NOT NULL, "person_uuid" uuid NOT NULL, "code_hash" text NOT NULL, "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL, "used_at" TIMESTAMP WITH TIME ZONE, "failed_attempts" integer NOT NULL DEFAULT '0', "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(), CONSTRAINT "PK_e8d16a13b8696957e3f49d4e6e5" PRIMARY KEY ("uuid"))`,
    );
    await queryRunner.query(`CREATE INDEX "IDX_9284bd0353fe8e05212db36faa" ON "tenant_verification_codes"  ("person_uuid", "created_at") `);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "public"."IDX_9284bd0353fe8e05212db36faa"`);
    await queryRunner.query(`DROP TABLE "tenant_verification_codes"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_178e98375b2edacd79204968c4"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_8223e5cc4486e72d127a4ba872"`);
    await queryRunner.query(`DROP TABLE "vehicles"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_a5087ed4e4c19757ed6800cace"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_0ffad72d198476311a57be51af"`);
    await queryRunner.query(`DROP TABLE "units"`);
    await queryRunner.query(`DROP TYPE "public"."unit_status"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_17e7cba198f74aed18d8ed5ed4"`);
    await queryRunner.query(`DROP TABLE "unit_types"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_cdffb36d2a2cd0417c18e5b880"`);
    await queryRunner.query(`DROP TABLE "unit_group_amenities"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_a094225c4d13449d6dc7a63f92"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_789c2450faddc55e76f65be014"`);
    await queryRunner.query(`DROP TABLE "unit_groups"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_7f3a1b903e1c76ca4bb15c9797"`);
    await queryRunner.query(`DROP TABLE "size_and_type_groups"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_7b695e017f6f1f29be4584d36a"`);
    await queryRunner.query(`DROP TABLE "rental_services"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_86832219740d70ac0e1a3dd582"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_06fbaeaa726a5ca1cdfbd6dbc0"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_b15f87c61c3037a0efa5b94bf9"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_c6e25cc515b8ab2683807768df"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_8331959717190a65e01ace3adc"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_c362e52d0159952cc056718e99"`);
    await queryRunner.query(`DROP TABLE "rental_records"`);
    await queryRunner.query(`DROP TYPE "public"."rental_status"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_1c3af972cf78e40f96a70fde7e"`);
    await queryRunner.query(`DROP TABLE "rate_plans"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_06836ac6353e1dd6eb59158e68"`);
    await queryRunner.query(`DROP TABLE "promotions"`);
    await queryRunner.query(`DROP TYPE "public"."promotion_family"`);
    await queryRunner.query(`DROP TYPE "public"."promotion_discount_type"`);
    await queryRunner.query(`DROP TYPE "public"."promotion_tenant_type"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_9303b853b1d0672da696dc70a1"`);
    await queryRunner.query(`DROP TABLE "portfolios"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_11c18f33525f3f286c56bdabfd"`);
    await queryRunner.query(`DROP TABLE "persons"`);
    await queryRunner.query(`DROP TYPE "public"."account_type"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_5d694f9264261413a995006e1f"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_74b3799c366fc05bd4c4f55931"`);
    await queryRunner.query(`DROP TABLE "notifications"`);
    await queryRunner.query(`DROP TYPE "public"."contact_method"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_8ff95e7376d380eda70d4d3d57"`);
    await queryRunner.query(`DROP TABLE "notes"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_44a66ca2a4bf1729f559534883"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_e848bd713d65adbee82a2b3e14"`);
    await queryRunner.query(`DROP TABLE "leases"`);
    await queryRunner.query(`DROP TYPE "public"."lease_status"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_d1dc2fa677f60c3ecfdab0c935"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_ad1926bb3a7b67d2e9dce27817"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_9eb37600579143db127c02104c"`);
    await queryRunner.query(`DROP TABLE "leads"`);
    await queryRunner.query(`DROP TYPE "public"."lead_status"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_9a898632e674a4d08998cad609"`);
    await queryRunner.query(`DROP TABLE "lead_marketing_sources"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_f33ecec4ee1b78c1b8bf8e8173"`);
    await queryRunner.query(`DROP TABLE "lead_sources"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_5a92960df484326a2dc9fe1b2a"`);
    await queryRunner.query(`DROP TABLE "item_types"`);
    await queryRunner.query(`DROP TYPE "public"."fee_type"`);
    await queryRunner.query(`DROP TYPE "public"."item_type_kind"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_ed40feb19397ac6cfc46d53814"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_2a177bf071c3bea53968e8adb6"`);
    await queryRunner.query(`DROP TABLE "gate_codes"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_14de08b6cb69b07f2a6a6a81c7"`);
    await queryRunner.query(`DROP TABLE "facilities"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_8c7c88e881faf28c39b195fce8"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_c48366503b846df17a049df252"`);
    await queryRunner.query(`DROP TABLE "coverage_enrollments"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_04291b46adffade1ba48caced0"`);
    await queryRunner.query(`DROP TABLE "coverages"`);
    await queryRunner.query(`DROP TYPE "public"."coverage_provider"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_57384430aa1959f4578046c9b8"`);
    await queryRunner.query(`DROP TABLE "api_keys"`);
    await queryRunner.query(`DROP TYPE "public"."api_key_scope"`);
    await queryRunner.query(`DROP INDEX "public"."IDX_f88bc2d864addb0877e95778f5"`);
    await queryRunner.query(`DROP TABLE "amenities"`);
  }
}
