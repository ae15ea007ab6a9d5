import { Column, Entity, Index } from 'typeorm';
import { CreatedAt, pennies, References, UuidPrimaryColumn } from '@storage/persistence';

/** A payment recorded against a rental's balance (operator extension `POST .../payments`). */
@Entity('payments')
export class Payment {
  @UuidPrimaryColumn() uuid!: string;
  @Index() @References('rental_records', 'CASCADE') @Column('uuid') rentalRecordUuid!: string;
  @Column(pennies()) amountInPennies!: number;
  /** The facility's calendar day the payment was taken. */
  @Column('date') paidOn!: string;
  @CreatedAt() createdAt!: Date;
}
