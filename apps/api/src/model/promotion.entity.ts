import { Column, Entity, Index } from 'typeorm';
import { CreatedAt, pennies, References, UuidPrimaryColumn } from '@storage/persistence';
import { PROMOTION_DISCOUNT_TYPES, PROMOTION_TENANT_TYPES, type PromotionDiscountType, type PromotionTenantType } from '@storage/domain';

export const PROMOTION_FAMILIES = ['RENT', 'DISCOUNTED_SERVICE'] as const;
export type PromotionFamilyKind = (typeof PROMOTION_FAMILIES)[number];

/** An auto-applied promotion of a facility (ARCHITECTURE.md "Promotions"); priced by @storage/domain. */
@Entity('promotions')
export class PromotionRecord {
  @UuidPrimaryColumn() uuid!: string;
  @Index() @References('facilities', 'CASCADE') @Column('uuid') facilityUuid!: string;
  @Column('text') name!: string;
  @Column('boolean', { default: true }) isAutoApplied!: boolean;
  @Column('enum', { enum: PROMOTION_TENANT_TYPES, enumName: 'promotion_tenant_type', default: 'ALL' }) tenantType!: PromotionTenantType;
  @Column('boolean', { default: false }) isAutoPayRequired!: boolean;
  @Column('enum', { enum: PROMOTION_DISCOUNT_TYPES, enumName: 'promotion_discount_type' }) discountType!: PromotionDiscountType;
  @Column('numeric', { precision: 5, scale: 2, nullable: true }) percentage!: string | null;
  @Column(pennies({ nullable: true })) amountInPennies!: number | null;
  @Column('integer', { default: 1 }) monthStarts!: number;
  @Column('integer', { default: 1 }) durationInMonths!: number;
  /** Targeted unit groups; empty targets all of the facility's. */
  @Column('uuid', { array: true, default: () => `'{}'` }) unitGroupUuids!: string[];
  @Column('date', { nullable: true }) validFrom!: string | null;
  @Column('date', { nullable: true }) validTo!: string | null;
  @Column('enum', { enum: PROMOTION_FAMILIES, enumName: 'promotion_family', default: 'RENT' }) family!: PromotionFamilyKind;
  /** The discounted item type, for DISCOUNTED_SERVICE promotions only. */
  @References('item_types', 'NO ACTION') @Column('uuid', { nullable: true }) itemTypeUuid!: string | null;
  @CreatedAt() createdAt!: Date;
}
