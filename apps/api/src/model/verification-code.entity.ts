import { Column, Entity, Index } from 'typeorm';
import { CreatedAt, References, UuidPrimaryColumn } from '@storage/persistence';

/** A code mailed to a returning tenant (check-preexisting), checked by operation 2. Stored hashed. */
@Entity('tenant_verification_codes')
@Index(['personUuid', 'createdAt'])
export class TenantVerificationCode {
  @UuidPrimaryColumn() uuid!: string;
  @References('facilities', 'CASCADE') @Column('uuid') facilityUuid!: string;
  @References('persons', 'CASCADE') @Column('uuid') personUuid!: string;
  @Column('text') codeHash!: string;
  @Column('timestamptz') expiresAt!: Date;
  @Column('timestamptz', { nullable: true }) usedAt!: Date | null;
  @Column('integer', { default: 0 }) failedAttempts!: number;
  @CreatedAt() createdAt!: Date;
}
