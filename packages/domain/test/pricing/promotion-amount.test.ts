import { InvalidPromotion, monthlyDiscount, promotionAmount } from '../../src';
import { promotion } from '../support/promotions';

describe('discount of one month', () => {
  it('percentage is r*p/100', () => {
    expect(monthlyDiscount(promotion({ discountType: 'PERCENTAGE', percentage: 25, amountInPennies: null }), 12_000)).toBe(3000);
    expect(monthlyDiscount(promotion({ discountType: 'PERCENTAGE', percentage: 12.5, amountInPennies: null }), 999)).toBeCloseTo(124.875);
  });

  it('amount off is min(a, r)', () => {
    expect(monthlyDiscount(promotion({ discountType: 'AMOUNT_OFF', amountInPennies: 2500 }), 12_000)).toBe(2500);
    expect(monthlyDiscount(promotion({ discountType: 'AMOUNT_OFF', amountInPennies: 20_000 }), 12_000)).toBe(12_000);
  });

  it('fixed rate is max(r - a, 0): the tenant pays a', () => {
    expect(monthlyDiscount(promotion({ discountType: 'FIXED_RATE', amountInPennies: 100 }), 12_000)).toBe(11_900);
    expect(monthlyDiscount(promotion({ discountType: 'FIXED_RATE', amountInPennies: 15_000 }), 12_000)).toBe(0);
  });
});

describe('promotion amount', () => {
  it('sums its months on the same rate', () => {
    const firstMonthsFree = promotion({ discountType: 'PERCENTAGE', percentage: 100, amountInPennies: null, durationInMonths: 2 });
    expect(promotionAmount(firstMonthsFree, 8900)).toBe(17_800);
    const oneDollarForThree = promotion({ discountType: 'FIXED_RATE', amountInPennies: 100, durationInMonths: 3 });
    expect(promotionAmount(oneDollarForThree, 8900)).toBe(26_400);
  });

  it('does not depend on the month it starts in', () => {
    const later = promotion({ discountType: 'AMOUNT_OFF', amountInPennies: 500, monthStarts: 4, durationInMonths: 2 });
    expect(promotionAmount(later, 8900)).toBe(1000);
  });

  it('rounds the sum, not each month, half away from zero', () => {
    // 1 % of 1050 is 10.5 a month: 31.5 over three months → 32 (rounding each month would give 33).
    const p = promotion({ discountType: 'PERCENTAGE', percentage: 1, amountInPennies: null, durationInMonths: 3 });
    expect(promotionAmount(p, 1050)).toBe(32);
    const half = promotion({ discountType: 'PERCENTAGE', percentage: 50, amountInPennies: null });
    expect(promotionAmount(half, 1001)).toBe(501); // 500.5 → 501
  });

  it('is 0 on a zero rate', () => {
    expect(promotionAmount(promotion({ discountType: 'FIXED_RATE', amountInPennies: 100 }), 0)).toBe(0);
  });

  it.each([
    ['PERCENTAGE without a percentage', { discountType: 'PERCENTAGE', percentage: null }],
    ['a percentage above 100', { discountType: 'PERCENTAGE', percentage: 120 }],
    ['a negative percentage', { discountType: 'PERCENTAGE', percentage: -5 }],
    ['AMOUNT_OFF without an amount', { discountType: 'AMOUNT_OFF', amountInPennies: null }],
    ['FIXED_RATE with a fractional amount', { discountType: 'FIXED_RATE', amountInPennies: 99.5 }],
    ['no months', { durationInMonths: 0 }],
    ['month 0', { monthStarts: 0 }],
  ] as const)('refuses %s with InvalidPromotion', (_case, overrides) => {
    const bad = promotion(overrides);
    expect(() => promotionAmount(bad, 8900)).toThrow(InvalidPromotion);
    expect(() => promotionAmount(bad, 8900)).toThrow(bad.uuid);
  });

  it('refuses a rate that is not pennies', () => {
    expect(() => promotionAmount(promotion(), -1)).toThrow(RangeError);
    expect(() => promotionAmount(promotion(), 89.5)).toThrow(RangeError);
  });
});
