import type { CalendarDate } from '../calendar-date';
import type { Pennies } from '../money';

export const PROMOTION_TENANT_TYPES = ['PERSONAL', 'BUSINESS', 'ALL'] as const;
export type PromotionTenantType = (typeof PROMOTION_TENANT_TYPES)[number];

export const PROMOTION_DISCOUNT_TYPES = ['PERCENTAGE', 'AMOUNT_OFF', 'FIXED_RATE'] as const;
export type PromotionDiscountType = (typeof PROMOTION_DISCOUNT_TYPES)[number];

/** What a promotion discounts: the rent, or the price of one item type (a recurring service). */
export type PromotionFamily = { kind: 'RENT' } | { kind: 'DISCOUNTED_SERVICE'; itemTypeUuid: string };

/** An auto-applied promotion (ARCHITECTURE.md "Promotions"). */
export interface Promotion {
  uuid: string;
  name: string;
  /** Breaks ties between equal amounts: the earlier created wins. */
  createdAt: Date;
  tenantType: PromotionTenantType;
  isAutoPayRequired: boolean;
  discountType: PromotionDiscountType;
  /** Percent off (0 to 100) when discountType is PERCENTAGE. */
  percentage: number | null;
  /** Pennies off (AMOUNT_OFF) or the rate the tenant pays (FIXED_RATE). */
  amountInPennies: Pennies | null;
  /**
   * 1-based rental month the promotion starts in. It does not change the amount: every month is
   * priced on the same current rate.
   */
  monthStarts: number;
  durationInMonths: number;
  /** Unit groups the promotion targets; empty targets every unit group. */
  unitGroupUuids: readonly string[];
  /** Inclusive window of calendar days; a null end is open. */
  validFrom: CalendarDate | null;
  validTo: CalendarDate | null;
  family: PromotionFamily;
}

/** A promotion whose discount cannot be computed (missing or out-of-range parameters): a data bug. */
export class InvalidPromotion extends Error {
  override readonly name = 'InvalidPromotion';

  constructor(
    readonly promotionUuid: string,
    readonly reason: string,
  ) {
    super(`Promotion ${promotionUuid} is invalid: ${reason}`);
  }
}
