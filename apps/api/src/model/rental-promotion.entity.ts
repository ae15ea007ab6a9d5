import { Column, Entity, Index } from 'typeorm';
import { CreatedAt, pennies, References, UuidPrimaryColumn } from '@storage/persistence';
import { PROMOTION_DISCOUNT_TYPES, type PromotionDiscountType } from '@storage/domain';
import { PROMOTION_FAMILIES, type PromotionFamilyKind } from './promotion.entity';

/**
 * A promotion applied to a rental: what the lease page promised the tenant, frozen at signing so a later
 * edit of the promotion changes nothing here. A transfer copies the rows to the new rental.
 */
@Entity('rental_promotions')
// Leads with the rental: the event context reads a rental's promotions through it, and it keeps a promotion once per rental.
@Index(['rentalRecordUuid', 'promotionUuid'], { unique: true })
export class RentalPromotion {
  @UuidPrimaryColumn() uuid!: string;
  @References('rental_records', 'CASCADE') @Column('uuid') rentalRecordUuid!: string;
  /** Not a foreign key: the promise outlives the promotion. */
  @References('promotions', 'NO ACTION') @Column('uuid') promotionUuid!: string;
  @Column('text') name!: string;
  @Column('enum', { enum: PROMOTION_FAMILIES, enumName: 'promotion_family' }) family!: PromotionFamilyKind;
  /** The discounted item type, for DISCOUNTED_SERVICE promotions only. */
  @References('item_types', 'NO ACTION') @Column('uuid', { nullable: true }) itemTypeUuid!: string | null;
  @Column('enum', { enum: PROMOTION_DISCOUNT_TYPES, enumName: 'promotion_discount_type' }) discountType!: PromotionDiscountType;
  @Column('numeric', { precision: 5, scale: 2, nullable: true }) percentage!: string | null;
  @Column(pennies({ nullable: true })) amountInPennies!: number | null;
  @Column('integer') monthStarts!: number;
  @Column('integer') durationInMonths!: number;
  /** The whole discount over the promotion's months, as the lease page showed it. */
  @Column(pennies()) discountInPennies!: number;
  /** The facility's day the lease was signed. */
  @Column('date') appliedOn!: string;
  @CreatedAt() createdAt!: Date;
}
