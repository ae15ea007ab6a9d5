import { Column, Entity, Index } from 'typeorm';
import { CreatedAt, UpdatedAt, UuidPrimaryColumn } from './columns';

@Entity('vehicles')
export class Vehicle {
  @UuidPrimaryColumn() uuid!: string;
  @Index() @Column('uuid') facilityUuid!: string;
  @Index() @Column('uuid') rentalRecordUuid!: string;
  @Column('text') type!: string;
  @Column('text') licensePlateNumber!: string;
  @Column('text') make!: string;
  @Column('text') model!: string;
  @Column('text') vin!: string;
  @CreatedAt() createdAt!: Date;
  @UpdatedAt() updatedAt!: Date;
}
