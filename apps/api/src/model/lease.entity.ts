import { Column, Entity, Index } from 'typeorm';
import { CreatedAt, pennies, References, UuidPrimaryColumn } from '@storage/persistence';

export const LEASE_STATUSES = ['SENT', 'SIGNED', 'VOID'] as const;
export type LeaseStatus = (typeof LEASE_STATUSES)[number];
export const CONTACT_METHODS = ['email', 'sms'] as const;
export type ContactMethod = (typeof CONTACT_METHODS)[number];

/** The lease offered to a lead; at most one SENT (signable) lease per lead. Signing it is issue 5's move-in. */
@Entity('leases')
@Index(['leadUuid'], { unique: true, where: `status = 'SENT'` })
// Deleting a lead or a rental looks their leases up (their foreign keys).
@Index('leases_lead', ['leadUuid'])
@Index('leases_rental', ['rentalRecordUuid'], { where: '"rental_record_uuid" IS NOT NULL' })
export class Lease {
  @UuidPrimaryColumn() uuid!: string;
  @References('leads', 'NO ACTION') @Column('uuid') leadUuid!: string;
  @References('facilities', 'NO ACTION') @Column('uuid') facilityUuid!: string;
  @References('unit_groups', 'NO ACTION') @Column('uuid') unitGroupUuid!: string;
  /** The monthly rent offered: the unit group's current web rate when first sent. */
  @Column(pennies()) rentInPennies!: number;
  /** The SHA-256 (hex) of the signing token, the lease page's address: the token itself is only sent. */
  @Index({ unique: true }) @Column('text') signingTokenHash!: string;
  @Column('enum', { enum: LEASE_STATUSES, enumName: 'lease_status', default: 'SENT' }) status!: LeaseStatus;
  @Column('timestamptz') sentAt!: Date;
  @Column('timestamptz', { nullable: true }) signedAt!: Date | null;
  @References('rental_records', 'NO ACTION') @Column('uuid', { nullable: true }) rentalRecordUuid!: string | null;
  @CreatedAt() createdAt!: Date;
}
