import { Column, Entity, Index } from 'typeorm';
import { CreatedAt, References, UpdatedAt, UuidPrimaryColumn } from '@storage/persistence';

@Entity('vehicles')
export class Vehicle {
  @UuidPrimaryColumn() uuid!: string;
  @Index() @References('facilities', 'NO ACTION') @Column('uuid') facilityUuid!: string;
  @Index() @References('rental_records', 'CASCADE') @Column('uuid') rentalRecordUuid!: string;
  @Column('text') type!: string;
  @Column('text') licensePlateNumber!: string;
  @Column('text') make!: string;
  @Column('text') model!: string;
  @Column('text') vin!: string;
  @CreatedAt() createdAt!: Date;
  @UpdatedAt() updatedAt!: Date;
}
