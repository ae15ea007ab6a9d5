import { Column, Entity, PrimaryColumn } from 'typeorm';
import { References } from '@storage/persistence';

/** One business-day run of one facility; the latest completed date is where catch-up resumes. */
@Entity('delinquency_runs')
export class DelinquencyRun {
  @References('facilities', 'CASCADE') @PrimaryColumn('uuid') facilityUuid!: string;
  @PrimaryColumn('date') businessDate!: string;
  @Column('timestamptz') startedAt!: Date;
  @Column('timestamptz', { nullable: true }) completedAt!: Date | null;
  @Column('integer', { default: 0 }) transitions!: number;
}
