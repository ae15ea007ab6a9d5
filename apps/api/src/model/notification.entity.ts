import { Column, Entity, Index } from 'typeorm';
import { CreatedAt, UuidPrimaryColumn } from './columns';
import { CONTACT_METHODS, type ContactMethod } from './lease.entity';

/** A message sent through the notification port, its secret left out; the embedded adapter's store, listed by the notifications extension. */
@Entity('notifications')
export class Notification {
  @UuidPrimaryColumn() uuid!: string;
  @Index() @Column('uuid') portfolioUuid!: string;
  @Index() @Column('uuid', { nullable: true }) leadUuid!: string | null;
  @Column('uuid', { nullable: true }) personUuid!: string | null;
  @Column('enum', { enum: CONTACT_METHODS, enumName: 'contact_method' }) channel!: ContactMethod;
  @Column('text') recipient!: string;
  @Column('text') subject!: string;
  @Column('text') body!: string;
  /** The lease whose signing link was sent (the link itself is not stored). */
  @Column('uuid', { nullable: true }) leaseUuid!: string | null;
  @CreatedAt() createdAt!: Date;
}
