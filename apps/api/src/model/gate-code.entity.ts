import { Column, Entity, Index } from 'typeorm';
import { CreatedAt, UuidPrimaryColumn } from './columns';

/** A rental's gate access code, unique within its facility. */
@Entity('gate_codes')
@Index(['facilityUuid', 'code'], { unique: true })
export class GateCode {
  @UuidPrimaryColumn() uuid!: string;
  @Column('uuid') facilityUuid!: string;
  @Index({ unique: true }) @Column('uuid') rentalRecordUuid!: string;
  @Column('text') code!: string;
  @CreatedAt() createdAt!: Date;
}
