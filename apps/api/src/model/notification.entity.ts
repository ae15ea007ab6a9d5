import { Column, Entity, Index } from 'typeorm';
import { CreatedAt, UuidPrimaryColumn } from './columns';
import { CONTACT_METHODS, type ContactMethod } from './lease.entity';

/** A message sent through the notification port; the embedded adapter's store, listed by the notifications extension. */
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
  @Column('text', { nullable: true }) link!: string | null;
  @CreatedAt() createdAt!: Date;
}
