import { Column, Entity, Index } from 'typeorm';
import { References, UuidPrimaryColumn } from '@storage/persistence';

/** A unit type (climate controlled, drive-up, parking…); its uuid is `entityAttributeOrganizationUuid` and the webhook `unitTypes` filter. */
@Entity('unit_types')
export class UnitType {
  @UuidPrimaryColumn() uuid!: string;
  @Index() @References('portfolios', 'CASCADE') @Column('uuid') portfolioUuid!: string;
  @Column('text') description!: string;
}
