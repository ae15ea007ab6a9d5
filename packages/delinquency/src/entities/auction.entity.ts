import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { References } from '@storage/persistence';
import { AUCTION_STAGES, type AuctionStage } from '@storage/domain';

/** The auction of a rental in AUCTION; at most one pending (CREATED or SCHEDULED) per rental. */
@Entity('auctions')
@Index(['rentalRecordUuid'], { unique: true, where: `stage IN ('CREATED', 'SCHEDULED')` })
export class AuctionRecord {
  @PrimaryColumn('uuid') uuid!: string;
  @Index() @References('rental_records', 'CASCADE') @Column('uuid') rentalRecordUuid!: string;
  @Column('uuid') delinquencyUuid!: string;
  @Column('uuid') facilityUuid!: string;
  @Column('enum', { enum: AUCTION_STAGES, enumName: 'auction_stage' }) stage!: AuctionStage;
  /** The day the auction is held; the bidding window runs from startDate to endDate. */
  @Column('date') scheduledOn!: string;
  @Column('date') startDate!: string;
  @Column('date') endDate!: string;
  @Column('date', { nullable: true }) canceledOn!: string | null;
  @Column('date', { nullable: true }) completedOn!: string | null;
  @Column('integer') minimumBidInPennies!: number;
  @Column('integer', { nullable: true }) winningBidInPennies!: number | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt!: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt!: Date;
}
