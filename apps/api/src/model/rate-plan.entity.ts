import { Column, Entity, Index } from 'typeorm';
import { References, UuidPrimaryColumn } from '@storage/persistence';
import type { OccupancyBand } from '@storage/domain';

/** Occupancy-driven pricing: the band holding a unit group's occupancy adjusts its base rates. */
@Entity('rate_plans')
export class RatePlan {
  @UuidPrimaryColumn() uuid!: string;
  @Index() @References('portfolios', 'CASCADE') @Column('uuid') portfolioUuid!: string;
  @Column('text') name!: string;
  /** Ordered bands; always read whole with the plan, so kept inline. */
  @Column('jsonb', { default: () => `'[]'` }) occupancyBands!: OccupancyBand[];
}
