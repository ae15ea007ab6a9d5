import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { WebhookEndpoint } from '@storage/webhooks';
import { WebhookMessage } from './webhook-message.entity';

/** One delivery attempt, kept so integrators can debug every failure in the portal. */
@Entity({ name: 'webhook_attempts' })
@Index('ix_webhook_attempts_message', ['messageId'])
@Index('ix_webhook_attempts_endpoint_time', ['endpointId', 'attemptedAt'])
export class WebhookAttempt {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id!: string;

  @Column('text')
  messageId!: string;

  @ManyToOne(() => WebhookMessage, { onDelete: 'CASCADE' })
  // The name migration WebhookDelivery gave it (TypeORM's default then; the naming strategy now follows PostgreSQL's).
  @JoinColumn({ name: 'message_id', foreignKeyConstraintName: 'FK_7dbf25c6722243e3cb16ef9fb27' })
  message?: WebhookMessage;

  @Column('uuid')
  endpointId!: string;

  @ManyToOne(() => WebhookEndpoint, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'endpoint_id', foreignKeyConstraintName: 'FK_ba3c8606f00614a41a397d17d48' })
  endpoint?: WebhookEndpoint;

  @Column('timestamptz')
  attemptedAt!: Date;

  @Column('boolean')
  succeeded!: boolean;

  @Column('integer', { nullable: true })
  statusCode!: number | null;

  /** Why no HTTP answer came (timeout, refused address, TLS); null when one did. */
  @Column('text', { nullable: true })
  error!: string | null;

  @Column('integer')
  latencyMs!: number;

  /** The response body, cut at 20 KB. */
  @Column('text', { nullable: true })
  responseBody!: string | null;

  /** The retry this attempt scheduled, if any. */
  @Column('timestamptz', { nullable: true })
  nextAttemptAt!: Date | null;
}
