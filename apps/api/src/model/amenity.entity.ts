import { Column, Entity, Index } from 'typeorm';
import { References, UuidPrimaryColumn } from '@storage/persistence';

@Entity('amenities')
export class Amenity {
  @UuidPrimaryColumn() uuid!: string;
  @Index() @References('portfolios', 'CASCADE') @Column('uuid') portfolioUuid!: string;
  @Column('text') description!: string;
  @Column('boolean', { default: false }) isSmartAmenity!: boolean;
}
