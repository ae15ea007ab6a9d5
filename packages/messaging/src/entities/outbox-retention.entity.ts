import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/**
 * How far outbox retention has pruned: one row (`name` = 'outbox') with the highest position and the latest
 * commit time deleted, so replay and consumers can tell an event that was pruned from one never written.
 */
@Entity({ name: 'outbox_retention' })
export class OutboxRetentionMark {
  @PrimaryColumn({ type: 'text' })
  name!: string;

  @Column({ type: 'bigint' })
  prunedThroughPosition!: string;

  @Column({ type: 'timestamptz' })
  prunedThroughTime!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}
