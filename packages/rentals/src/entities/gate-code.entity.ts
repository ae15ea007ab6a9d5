import { Column, Entity, Index } from 'typeorm';
import { CreatedAt, References, UuidPrimaryColumn } from '@storage/persistence';

/** A rental's gate access code, unique within its facility. */
@Entity('gate_codes')
@Index(['facilityUuid', 'code'], { unique: true })
export class GateCode {
  @UuidPrimaryColumn() uuid!: string;
  @References('facilities', 'NO ACTION') @Column('uuid') facilityUuid!: string;
  @Index({ unique: true }) @References('rental_records', 'CASCADE') @Column('uuid') rentalRecordUuid!: string;
  @Column('text') code!: string;
  @CreatedAt() createdAt!: Date;
}
