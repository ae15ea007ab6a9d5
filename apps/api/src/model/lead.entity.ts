import { Column, Entity, Index } from 'typeorm';
import { CreatedAt, References, UpdatedAt, UuidPrimaryColumn } from '@storage/persistence';

export const LEAD_STATUSES = ['OPEN', 'LEASE_SENT', 'CONVERTED', 'LOST'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

/** A prospective rental at a facility. Signing its lease converts it: status CONVERTED and the rental it produced. */
@Entity('leads')
// Deleting a rental looks up the lead it converted (foreign key leads_converted_rental_record_uuid_fkey).
@Index('leads_converted_rental', ['convertedRentalRecordUuid'], { where: '"converted_rental_record_uuid" IS NOT NULL' })
export class Lead {
  @UuidPrimaryColumn() uuid!: string;
  @Index() @References('portfolios', 'NO ACTION') @Column('uuid') portfolioUuid!: string;
  @Index() @References('facilities', 'NO ACTION') @Column('uuid') facilityUuid!: string;
  @References('unit_groups', 'NO ACTION') @Column('uuid', { nullable: true }) unitGroupUuid!: string | null;
  @Index() @References('persons', 'NO ACTION') @Column('uuid') personUuid!: string;
  @Column('enum', { enum: LEAD_STATUSES, enumName: 'lead_status', default: 'OPEN' }) status!: LeadStatus;
  @Column('boolean', { default: false }) isForBusiness!: boolean;
  @References('lead_sources', 'NO ACTION') @Column('uuid', { nullable: true }) leadSourceUuid!: string | null;
  @References('lead_marketing_sources', 'NO ACTION') @Column('uuid', { nullable: true }) leadMarketingSourceUuid!: string | null;
  @Column('date', { nullable: true }) desiredMoveInDate!: string | null;
  /** Set for a returning tenant's lead (operation 2): proves the email was verified. */
  @Column('text', { nullable: true }) verifyToken!: string | null;
  @References('rental_records', 'NO ACTION') @Column('uuid', { nullable: true }) convertedRentalRecordUuid!: string | null;
  /** Set for a lead created with an Idempotency-Key: the request's fingerprint, which a retry under the key must match. */
  @Column('text', { nullable: true }) requestFingerprint!: string | null;
  @CreatedAt() createdAt!: Date;
  @UpdatedAt() updatedAt!: Date;
}
