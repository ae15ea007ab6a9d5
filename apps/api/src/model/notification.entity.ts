import { Column, Entity, Index } from 'typeorm';
import { CreatedAt, References, UuidPrimaryColumn } from '@storage/persistence';
import { CONTACT_METHODS, type ContactMethod } from './lease.entity';

/** A message sent through the notification port, its secret left out; the embedded adapter's store, listed by the notifications extension. */
@Entity('notifications')
// Deleting a person or a lease looks their notifications up (their foreign keys).
@Index('notifications_person', ['personUuid'], { where: '"person_uuid" IS NOT NULL' })
@Index('notifications_lease', ['leaseUuid'], { where: '"lease_uuid" IS NOT NULL' })
export class Notification {
  @UuidPrimaryColumn() uuid!: string;
  @Index() @References('portfolios', 'NO ACTION') @Column('uuid') portfolioUuid!: string;
  @Index() @References('leads', 'NO ACTION') @Column('uuid', { nullable: true }) leadUuid!: string | null;
  @References('persons', 'NO ACTION') @Column('uuid', { nullable: true }) personUuid!: string | null;
  @Column('enum', { enum: CONTACT_METHODS, enumName: 'contact_method' }) channel!: ContactMethod;
  @Column('text') recipient!: string;
  @Column('text') subject!: string;
  @Column('text') body!: string;
  /** The lease whose signing link was sent (the link itself is not stored). */
  @References('leases', 'NO ACTION') @Column('uuid', { nullable: true }) leaseUuid!: string | null;
  @CreatedAt() createdAt!: Date;
}
