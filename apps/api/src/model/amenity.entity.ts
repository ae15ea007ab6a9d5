import { Column, Entity, Index } from 'typeorm';
import { UuidPrimaryColumn } from './columns';

@Entity('amenities')
export class Amenity {
  @UuidPrimaryColumn() uuid!: string;
  @Index() @Column('uuid') portfolioUuid!: string;
  @Column('text') description!: string;
  @Column('boolean', { default: false }) isSmartAmenity!: boolean;
}
