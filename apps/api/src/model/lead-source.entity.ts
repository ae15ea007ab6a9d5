import { Column, Entity, Index } from 'typeorm';
import { References, UuidPrimaryColumn } from '@storage/persistence';

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
