import { Check, Column, Entity, Index } from 'typeorm';
import { CreatedAt, pennies, References, UpdatedAt, UuidPrimaryColumn } from '@storage/persistence';

export const RENTAL_STATUSES = ['ACTIVE', 'MOVED_OUT'] as const;
export type RentalStatus = (typeof RENTAL_STATUSES)[number];

/** A unit rented by a tenant: what billing, delinquency, transfer and move-out work on. */
@Entity('rental_records')
@Index(['unitGroupUuid', 'status'])
// Deleting a lead looks its rentals up (foreign key rental_records_lead_uuid_fkey).
@Index('rental_records_lead', ['leadUuid'], { where: '"lead_uuid" IS NOT NULL' })
// The business day's autopay finds a facility's autopay rentals without reading the others.
@Index('rental_records_autopay', ['facilityUuid'], { where: `"autopay_payment_method" IS NOT NULL AND "status" = 'ACTIVE'` })
@Check('rental_records_autopay_payment_method', 'length("autopay_payment_method") BETWEEN 1 AND 100')
export class RentalRecord {
  @UuidPrimaryColumn() uuid!: string;
  @Index() @References('portfolios', 'NO ACTION') @Column('uuid') portfolioUuid!: string;
  @Index() @References('facilities', 'NO ACTION') @Column('uuid') facilityUuid!: string;
  @Index() @References('units', 'NO ACTION') @Column('uuid') unitUuid!: string;
  @References('unit_groups', 'NO ACTION') @Column('uuid') unitGroupUuid!: string;
  @Index() @References('persons', 'NO ACTION') @Column('uuid') personUuid!: string;
  @References('leads', 'NO ACTION') @Column('uuid', { nullable: true }) leadUuid!: string | null;
  @Column(pennies()) rentInPennies!: number;
  /** What the tenant owes now; positive is owed, negative is credit. */
  @Column(pennies({ default: 0 })) balanceInPennies!: number;
  /** The due date of the oldest charge not covered by payments (null: nothing owed); kept by the ledger's trigger. */
  @Column('date', { nullable: true }) oldestOpenDueOn!: string | null;
  @Column('smallint') billingDayOfMonth!: number;
  @Column('date') nextDueDate!: string;
  @Column('date') startDate!: string;
  /** When the tenancy began, carried by transfers (null: startDate): it anchors billing. */
  @Column('date', { nullable: true }) tenancyStartDate!: string | null;
  @Column('date', { nullable: true }) endDate!: string | null;
  @Column('enum', { enum: RENTAL_STATUSES, enumName: 'rental_status', default: 'ACTIVE' }) status!: RentalStatus;
  /** The payment method autopay charges on each due date (null: autopay off); set by the autopay routes. */
  @Column('text', { nullable: true }) autopayPaymentMethod!: string | null;
  /**
   * Generated from `autopayPaymentMethod` (migration RentalAutopay): never written, so it cannot disagree. Never null,
   * though the catalog says nullable (PostgreSQL does not infer NOT NULL for a generated column); the expression is
   * the one migration GeneratedColumnExpressions records for TypeORM, word for word.
   */
  @Column({ type: 'boolean', generatedType: 'STORED', asExpression: '"autopay_payment_method" IS NOT NULL', nullable: true, insert: false, update: false })
  isAutopayEnabled!: boolean;
  /** Time of the rental's latest lifecycle event: the next one is later, so event ids never clash. */
  @Column('timestamptz', { nullable: true }) lastEventAt!: Date | null;
  @CreatedAt() createdAt!: Date;
  @UpdatedAt() updatedAt!: Date;
}

/** A recurring service or fee on a rental; ended rather than deleted so the history stays. */
@Entity('rental_services')
export class RentalService {
  @UuidPrimaryColumn() uuid!: string;
  @Index() @References('rental_records', 'CASCADE') @Column('uuid') rentalRecordUuid!: string;
  @References('item_types', 'NO ACTION') @Column('uuid') itemTypeUuid!: string;
  @Column('text') description!: string;
  @Column(pennies()) amountInPennies!: number;
  @Column('text', { default: 'FIXED_AMOUNT' }) feeType!: string;
  @Column('date') startDate!: string;
  @Column('date', { nullable: true }) endDate!: string | null;
  @CreatedAt() createdAt!: Date;
}
