import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';

/** Embedded mode (and the relay): the last outbox position a consumer group has finished. */
@Entity({ name: 'consumer_offsets' })
export class ConsumerOffset {
  @PrimaryColumn({ type: 'text' })
  consumerGroup!: string;

  @Column({ type: 'bigint' })
  position!: string;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}
