import { Column, Entity, Index } from 'typeorm';
import { CreatedAt, pennies, UpdatedAt, UuidPrimaryColumn } from './columns';

export const RENTAL_STATUSES = ['ACTIVE', 'MOVED_OUT'] as const;
export type RentalStatus = (typeof RENTAL_STATUSES)[number];

/** A unit rented by a tenant: what billing, delinquency, transfer and move-out work on. */
@Entity('rental_records')
@Index(['unitGroupUuid', 'status'])
export class RentalRecord {
  @UuidPrimaryColumn() uuid!: string;
  @Index() @Column('uuid') portfolioUuid!: string;
  @Index() @Column('uuid') facilityUuid!: string;
  @Index() @Column('uuid') unitUuid!: string;
  @Column('uuid') unitGroupUuid!: string;
  @Index() @Column('uuid') personUuid!: string;
  @Column('uuid', { nullable: true }) leadUuid!: string | null;
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
  /** Generated from `autopayPaymentMethod` (migration RentalAutopay): never written, so it cannot disagree. */
  @Column({ type: 'boolean', generatedType: 'STORED', asExpression: 'autopay_payment_method IS NOT NULL', insert: false, update: false }) isAutopayEnabled!: boolean;
  /** Time of the rental's latest lifecycle event: the next one is later, so event ids never clash. */
  @Column('timestamptz', { nullable: true }) lastEventAt!: Date | null;
  @CreatedAt() createdAt!: Date;
  @UpdatedAt() updatedAt!: Date;
}

/** A recurring service or fee on a rental; ended rather than deleted so the history stays. */
@Entity('rental_services')
export class RentalService {
  @UuidPrimaryColumn() uuid!: string;
  @Index() @Column('uuid') rentalRecordUuid!: string;
  @Column('uuid') itemTypeUuid!: string;
  @Column('text') description!: string;
  @Column(pennies()) amountInPennies!: number;
  @Column('text', { default: 'FIXED_AMOUNT' }) feeType!: string;
  @Column('date') startDate!: string;
  @Column('date', { nullable: true }) endDate!: string | null;
  @CreatedAt() createdAt!: Date;
}
