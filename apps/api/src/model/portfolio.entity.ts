import { Column, Entity, Index } from 'typeorm';
import { CreatedAt, UuidPrimaryColumn } from '@storage/persistence';

/** The tenancy scope of a client; `portfolioId` is the `{portfolio}` path segment. */
@Entity('portfolios')
export class Portfolio {
  @UuidPrimaryColumn() uuid!: string;
  @Index({ unique: true }) @Column('text') portfolioId!: string;
  @Column('text') name!: string;
  @CreatedAt() createdAt!: Date;
}
