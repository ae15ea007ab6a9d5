import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One event written in its producer's transaction. The table is the relay's queue in Kafka mode and
 * the log itself in embedded mode: `id` is the log position (see log-reader.ts for commit order). What a relay has
 * published is its saved position, not a mark on each row.
 */
@Entity({ name: 'outbox' })
@Index('outbox_created_at', ['createdAt'])
export class OutboxEntry {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id!: string;

  @Column({ type: 'text' })
  topic!: string;

  /** Partition key (rentalRecordUuid where there is one); events of one key stay in order. */
  @Column({ type: 'text', nullable: true })
  key!: string | null;

  @Column({ type: 'text' })
  type!: string;

  @Index('outbox_event_id', { unique: true })
  @Column({ type: 'text' })
  eventId!: string;

  /** The producing service: its relay publishes only its own rows. */
  @Column({ type: 'text' })
  source!: string;

  /** As its producer wrote it (json, not jsonb): nothing queries inside it, the relay passes it on whole. */
  @Column({ type: 'json' })
  envelope!: unknown;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
