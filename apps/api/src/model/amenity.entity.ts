import { Column, Entity, Index } from 'typeorm';
import { References } from '@storage/persistence';
import { UuidPrimaryColumn } from './columns';

@Entity('amenities')
export class Amenity {
  @UuidPrimaryColumn() uuid!: string;
  @Index() @References('portfolios', 'CASCADE') @Column('uuid') portfolioUuid!: string;
  @Column('text') description!: string;
  @Column('boolean', { default: false }) isSmartAmenity!: boolean;
}
