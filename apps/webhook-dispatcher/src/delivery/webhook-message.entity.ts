import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { WebhookEndpoint } from '@storage/webhooks';

export const MESSAGE_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/**
 * One event for one endpoint. Its id is the `hook-id`, stable across retries; the unique pair
 * (endpoint, event) makes a replayed event a no-op. Pending rows are the retry queue.
 */
@Entity({ name: 'webhook_messages' })
@Index('uq_webhook_messages_endpoint_event', ['endpointId', 'eventId'], { unique: true })
// Not `status = 'pending'` alone: the hold checks must not be able to use these (migration PendingMessagePlans).
@Index('ix_webhook_messages_due', ['nextAttemptAt'], { where: `status = 'pending' AND next_attempt_at IS NOT NULL` })
@Index('ix_webhook_messages_endpoint_created', ['endpointId', 'createdAt'])
@Index('ix_webhook_messages_endpoint_due', ['endpointId', 'nextAttemptAt'], { where: `status = 'pending' AND next_attempt_at IS NOT NULL` })
@Index('ix_webhook_messages_endpoint_claimed', ['endpointId', 'nextAttemptAt'], { where: `status = 'pending' AND claimed` })
@Index('ix_webhook_messages_ordering', ['endpointId', 'orderingKey', 'status', 'emissionOrder'])
export class WebhookMessage {
  @PrimaryColumn('text')
  id!: string;

  @Column('uuid')
  endpointId!: string;

  @ManyToOne(() => WebhookEndpoint, { onDelete: 'CASCADE' })
  // The name migration WebhookDelivery gave it (TypeORM's default then; the naming strategy now follows PostgreSQL's).
  @JoinColumn({ name: 'endpoint_id', foreignKeyConstraintName: 'FK_2ebdc23f5ae2b27a09c8446c899' })
  endpoint?: WebhookEndpoint;

  @Column('text')
  portfolio!: string;

  @Column('text')
  eventId!: string;

  @Column('text')
  eventType!: string;

  /**
   * The exact bytes that are signed and sent: `{"data":[payload],"test":false}` (`true` for operation 19's). A body
   * stored before `test` existed (`{"data":[payload]}`) gets it added when claimed (`MessageStore.claimDue`).
   */
  @Column('text')
  body!: string;

  @Column('text')
  status!: MessageStatus;

  @Column('integer', { default: 0 })
  attempts!: number;

  /** When the next attempt is due; while an attempt runs, the end of its lease (a crashed worker's message comes back). */
  @Column('timestamptz', { nullable: true })
  nextAttemptAt!: Date | null;

  /** The rental the event is about (the events' partition key): its messages to one endpoint keep their order. Null for test events. */
  @Column('uuid', { nullable: true })
  orderingKey!: string | null;

  /** Creation order; one rental's events are fanned out one at a time as emitted, so it is their emission order. */
  @Column({ type: 'bigint', generated: 'identity', generatedIdentity: 'BY DEFAULT' })
  emissionOrder!: string;

  /** Taken for an attempt (until recorded): with `nextAttemptAt` ahead, in flight; passed, its worker died. */
  @Column('boolean', { default: false })
  claimed!: boolean;

  @Column('timestamptz')
  createdAt!: Date;

  @Column('timestamptz', { nullable: true })
  lastAttemptAt!: Date | null;
}
