import { Column, Entity, Index } from 'typeorm';
import { CreatedAt, UpdatedAt, UuidPrimaryColumn } from './columns';

export const LEAD_STATUSES = ['OPEN', 'LEASE_SENT', 'CONVERTED', 'LOST'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

/** A prospective rental at a facility. Signing its lease converts it: status CONVERTED and the rental it produced. */
@Entity('leads')
export class Lead {
  @UuidPrimaryColumn() uuid!: string;
  @Index() @Column('uuid') portfolioUuid!: string;
  @Index() @Column('uuid') facilityUuid!: string;
  @Column('uuid', { nullable: true }) unitGroupUuid!: string | null;
  @Index() @Column('uuid') personUuid!: string;
  @Column('enum', { enum: LEAD_STATUSES, enumName: 'lead_status', default: 'OPEN' }) status!: LeadStatus;
  @Column('boolean', { default: false }) isForBusiness!: boolean;
  @Column('uuid', { nullable: true }) leadSourceUuid!: string | null;
  @Column('uuid', { nullable: true }) leadMarketingSourceUuid!: string | null;
  @Column('date', { nullable: true }) desiredMoveInDate!: string | null;
  /** Set for a returning tenant's lead (operation 2): proves the email was verified. */
  @Column('text', { nullable: true }) verifyToken!: string | null;
  @Column('uuid', { nullable: true }) convertedRentalRecordUuid!: string | null;
  @CreatedAt() createdAt!: Date;
  @UpdatedAt() updatedAt!: Date;
}
