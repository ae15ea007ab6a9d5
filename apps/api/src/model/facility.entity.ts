import { Column, Entity, Index } from 'typeorm';
import { CreatedAt, References, UpdatedAt, UuidPrimaryColumn } from '@storage/persistence';

/** Opening hours per day, e.g. `{ "monday": { "open": "08:00", "close": "18:00" } }`; a closed day is null. */
export type OperatingHours = Record<string, { open: string; close: string } | null>;

@Entity('facilities')
export class Facility {
  @UuidPrimaryColumn() uuid!: string;
  @Index() @References('portfolios', 'NO ACTION') @Column('uuid') portfolioUuid!: string;
  @Column('text') name!: string;
  @Column('text') addressLine1!: string;
  @Column('text', { nullable: true }) addressLine2!: string | null;
  @Column('text') city!: string;
  @Column('text') state!: string;
  @Column('text') zip!: string;
  @Column('text', { default: 'US' }) country!: string;
  @Column('text') phone!: string;
  @Column('jsonb') operatingHours!: OperatingHours;
  /** IANA zone; business days (promotion windows, due dates) are counted in it. */
  @Column('text') timeZone!: string;
  @CreatedAt() createdAt!: Date;
  @UpdatedAt() updatedAt!: Date;
}
