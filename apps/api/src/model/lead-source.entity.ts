import { Column, Entity, Index } from 'typeorm';
import { References } from '@storage/persistence';
import { UuidPrimaryColumn } from './columns';

@Entity('lead_sources')
export class LeadSource {
  @UuidPrimaryColumn() uuid!: string;
  @Index() @References('portfolios', 'CASCADE') @Column('uuid') portfolioUuid!: string;
  @Column('text') description!: string;
}

@Entity('lead_marketing_sources')
export class LeadMarketingSource {
  @UuidPrimaryColumn() uuid!: string;
  @Index() @References('portfolios', 'CASCADE') @Column('uuid') portfolioUuid!: string;
  @Column('text') description!: string;
}
