import { Column, Entity, Index } from 'typeorm';
import { pennies, References, UuidPrimaryColumn } from '@storage/persistence';

export const ITEM_TYPE_KINDS = ['SERVICE', 'FEE', 'COVERAGE'] as const;
export type ItemTypeKind = (typeof ITEM_TYPE_KINDS)[number];
export const FEE_TYPES = ['FIXED_AMOUNT', 'PERCENTAGE'] as const;
export type FeeType = (typeof FEE_TYPES)[number];

/** A priced line of a bill: a recurring service, a fee (late fee, admin fee) or a coverage premium. */
@Entity('item_types')
export class ItemType {
  @UuidPrimaryColumn() uuid!: string;
  @Index() @References('portfolios', 'CASCADE') @Column('uuid') portfolioUuid!: string;
  @Column('text') name!: string;
  @Column('enum', { enum: ITEM_TYPE_KINDS, enumName: 'item_type_kind' }) kind!: ItemTypeKind;
  @Column(pennies()) priceInPennies!: number;
  @Column('enum', { enum: FEE_TYPES, enumName: 'fee_type', default: 'FIXED_AMOUNT' }) feeType!: FeeType;
  @Column('boolean', { default: false }) isRecurring!: boolean;
}
