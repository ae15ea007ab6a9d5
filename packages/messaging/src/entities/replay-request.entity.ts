import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A replay made by the CLI. `consumedBefore` holds, per stream ("log" embedded, "topic:partition" in Kafka),
 * the position the group had reached: messages below it were handled before the replay.
 */
@Entity({ name: 'replay_requests' })
@Index('replay_requests_group', ['consumerGroup', 'id'])
export class ReplayRequest {
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id!: string;

  @Column({ type: 'text' })
  consumerGroup!: string;

  @Column({ type: 'timestamptz' })
  fromTime!: Date;

  @Column({ type: 'timestamptz', nullable: true })
  toTime!: Date | null;

  /** Asks the group to act again on events it already handled (the webhook dispatcher re-sends). */
  @Column({ type: 'boolean' })
  redeliver!: boolean;

  @Column({ type: 'jsonb' })
  consumedBefore!: Record<string, string>;

  @CreateDateColumn({ type: 'timestamptz' })
  requestedAt!: Date;
}
