import { CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** Written in a handler's transaction, so an event's effects are applied once per consumer group. */
@Entity({ name: 'processed_events' })
export class ProcessedEvent {
  @PrimaryColumn({ type: 'text' })
  consumerGroup!: string;

  @PrimaryColumn({ type: 'text' })
  eventId!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  processedAt!: Date;
}
