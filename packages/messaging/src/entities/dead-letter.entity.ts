import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** Embedded mode: a message a consumer group gave up on, with why. (Kafka mode uses `<topic>.dlq`.) */
@Entity({ name: 'dead_letters' })
@Index('dead_letters_group_event', ['consumerGroup', 'eventId'], { unique: true })
export class DeadLetter {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id!: string;

  @Column({ type: 'text' })
  consumerGroup!: string;

  @Column({ type: 'text' })
  topic!: string;

  /** The envelope's id, or the outbox position when the envelope could not be read. */
  @Column({ type: 'text' })
  eventId!: string;

  @Column({ type: 'bigint' })
  position!: string;

  @Column({ type: 'jsonb' })
  message!: unknown;

  @Column({ type: 'text' })
  reason!: string;

  @Column({ type: 'int' })
  attempts!: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
