import { isPennies, roundPennies, type Pennies } from '../money';
import { InvalidPromotion, type Promotion } from './promotion';

/** What a month's discount depends on: the same for an offered promotion and for one frozen at signing. */
export type DiscountTerms = Pick<Promotion, 'uuid' | 'discountType' | 'percentage' | 'amountInPennies'>;

/**
 * Discount of one month on `rate`, unrounded: percentage r*p/100, amount off min(a, r),
 * fixed rate max(r - a, 0) (the tenant pays a, so the discount is what lies above it).
 */
export function monthlyDiscount(promotion: DiscountTerms, rateInPennies: Pennies): number {
  assertRate(rateInPennies);
  switch (promotion.discountType) {
    case 'PERCENTAGE':
      return (rateInPennies * percentageOf(promotion)) / 100;
    case 'AMOUNT_OFF':
      return Math.min(amountOf(promotion), rateInPennies);
    case 'FIXED_RATE':
      return Math.max(rateInPennies - amountOf(promotion), 0);
  }
}

/**
 * The promotion's amount: the sum of its months' discounts on the same rate, rounded to pennies.
 * Never negative and never more than durationInMonths × rate.
 */
export function promotionAmount(promotion: Promotion, rateInPennies: Pennies): Pennies {
  const months = promotion.durationInMonths;
  if (!Number.isSafeInteger(months) || months < 1) {
    throw new InvalidPromotion(promotion.uuid, `durationInMonths must be a positive integer, got ${months}`);
  }
  if (!Number.isSafeInteger(promotion.monthStarts) || promotion.monthStarts < 1) {
    throw new InvalidPromotion(promotion.uuid, `monthStarts must be a positive integer, got ${promotion.monthStarts}`);
  }
  return roundPennies(monthlyDiscount(promotion, rateInPennies) * months);
}

function assertRate(rateInPennies: Pennies): void {
  if (!isPennies(rateInPennies)) throw new RangeError(`A rate must be non-negative integer pennies, got ${String(rateInPennies)}`);
}

function percentageOf(promotion: DiscountTerms): number {
  const p = promotion.percentage;
  if (p === null || !Number.isFinite(p) || p < 0 || p > 100) {
    throw new InvalidPromotion(promotion.uuid, `a PERCENTAGE promotion needs a percentage from 0 to 100, got ${p}`);
  }
  return p;
}

function amountOf(promotion: DiscountTerms): Pennies {
  const a = promotion.amountInPennies;
  if (!isPennies(a)) {
    throw new InvalidPromotion(promotion.uuid, `a ${promotion.discountType} promotion needs amountInPennies as non-negative integer pennies, got ${a}`);
  }
  return a;
}
