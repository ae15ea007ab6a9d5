import { Column, Entity, Index } from 'typeorm';
import { CreatedAt, References, UpdatedAt, UuidPrimaryColumn } from '@storage/persistence';

export const ACCOUNT_TYPES = ['PERSONAL', 'BUSINESS'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

export interface AlternateContact {
  firstName: string;
  lastName: string;
  phone: string;
  relationship: string;
}

export interface MilitaryService {
  branch: string;
  startDateOfService: string | null;
  commanderOfficer: string | null;
  officerEmail: string | null;
}

export interface Beneficiary {
  firstName: string;
  lastName: string;
  relationship: string;
  email: string;
  phone: string;
}

/** A prospect or tenant. Leads point at one from creation; a signed lease makes them a tenant. */
@Entity('persons')
@Index(['portfolioUuid', 'email'])
export class Person {
  @UuidPrimaryColumn() uuid!: string;
  @References('portfolios', 'NO ACTION') @Column('uuid') portfolioUuid!: string;
  @Column('text') firstName!: string;
  @Column('text') lastName!: string;
  /** Stored lower-cased so look-ups by email are exact. */
  @Column('text', { nullable: true }) email!: string | null;
  /** Ten digits, whatever format it arrived in. */
  @Column('text', { nullable: true }) phone!: string | null;
  @Column('text', { nullable: true }) phoneType!: string | null;
  @Column('boolean', { default: false }) isSmsEnrolled!: boolean;
  @Column('text', { nullable: true }) addressLine1!: string | null;
  @Column('text', { nullable: true }) addressLine2!: string | null;
  @Column('text', { nullable: true }) city!: string | null;
  @Column('text', { nullable: true }) state!: string | null;
  @Column('text', { nullable: true }) country!: string | null;
  @Column('text', { nullable: true }) zip!: string | null;
  @Column('text', { nullable: true }) idType!: string | null;
  @Column('text', { nullable: true }) idCode!: string | null;
  @Column('text', { nullable: true }) idState!: string | null;
  @Column('text', { nullable: true }) idCountry!: string | null;
  @Column('date', { nullable: true }) idIssueDate!: string | null;
  @Column('date', { nullable: true }) idExpirationDate!: string | null;
  @Column('enum', { enum: ACCOUNT_TYPES, enumName: 'account_type', default: 'PERSONAL' }) accountType!: AccountType;
  @Column('text', { nullable: true }) businessName!: string | null;
  @Column('text', { nullable: true }) taxId!: string | null;
  @Column('date', { nullable: true }) dateOfBirth!: string | null;
  @Column('jsonb', { nullable: true }) alternateContact!: AlternateContact | null;
  @Column('jsonb', { nullable: true }) military!: MilitaryService | null;
  @Column('jsonb', { nullable: true }) beneficiary!: Beneficiary | null;
  @CreatedAt() createdAt!: Date;
  @UpdatedAt() updatedAt!: Date;
}
