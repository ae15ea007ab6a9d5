import { addDays, type CalendarDate } from '../calendar-date';
import type { ServiceFee } from '../events/tenant-lifecycle/service-fee';
import { isPennies, roundPennies, type Pennies } from '../money';
import type { Promotion, PromotionFamily } from '../pricing/promotion';
import { monthlyDiscount } from '../pricing/promotion-amount';
import { billingPeriodStarting, type BillingPeriod } from './billing-period';

/** A promotion's terms as frozen on the rental at signing (`rental_promotions`). */
export type PromotionTerms = Pick<
  Promotion,
  'uuid' | 'name' | 'family' | 'discountType' | 'percentage' | 'amountInPennies' | 'monthStarts' | 'durationInMonths'
>;

export interface RentChangeTerms {
  effectiveDate: CalendarDate;
  rentInPennies: Pennies;
}

/** What a rental is billed on. Services and coverage are those active on the period's due date. */
export interface RentalBillingTerms {
  /** The rent agreed at signing. */
  rentInPennies: Pennies;
  /** Each takes effect from the first period that starts on or after its effective date. */
  rentChanges: readonly RentChangeTerms[];
  services: readonly ServiceFee[];
  coverage: { description: string; premiumInPennies: Pennies } | null;
  promotions: readonly PromotionTerms[];
}

export const CHARGE_KINDS = ['RENT', 'MOVE_IN_PRORATION', 'SERVICE_FEE', 'COVERAGE_PREMIUM'] as const;
export type PeriodChargeKind = (typeof CHARGE_KINDS)[number];

/** A promotion's discount of one charge: posted as a credit against that charge, naming the promotion. */
export interface PromotionDiscount {
  promotionUuid: string;
  name: string;
  amountInPennies: Pennies;
}

/** One charge of a period, due on its first day, with the promotions that discount it. */
export interface PeriodCharge {
  kind: PeriodChargeKind;
  description: string;
  amountInPennies: Pennies;
  dueOn: CalendarDate;
  servicePeriod: { from: CalendarDate; to: CalendarDate };
  /** The item type of a service fee; null otherwise. */
  itemTypeUuid: string | null;
  discounts: PromotionDiscount[];
}

/** What the tenant owes for a charge once its promotions are taken off. */
export function netAmount(charge: PeriodCharge): Pennies {
  return charge.amountInPennies - charge.discounts.reduce((sum, discount) => sum + discount.amountInPennies, 0);
}

/** The rent of the period: the last change effective on or before the day the period starts. */
export function rentForPeriod(terms: RentalBillingTerms, period: BillingPeriod): Pennies {
  let rent = terms.rentInPennies;
  let effective = '';
  for (const change of terms.rentChanges) {
    if (change.effectiveDate <= period.from && change.effectiveDate >= effective) {
      rent = change.rentInPennies;
      effective = change.effectiveDate;
    }
  }
  return rent;
}

/**
 * The charges of one period: rent (a move-in proration when the period is short), each service fee
 * (FIXED_AMOUNT in pennies, PERCENTAGE of the period's rent), the coverage premium. Amounts are computed on the
 * whole month and prorated by days once, rounded half away from zero. A promotion discounts the charges of its
 * family (rent, or its item type's service) in the rental months it covers; its month's discount is prorated
 * like the charge, and the discounts of one charge never exceed it. Charges of zero are left out.
 */
export function chargesForPeriod(terms: RentalBillingTerms, period: BillingPeriod): PeriodCharge[] {
  const share = period.days / period.fullMonthDays;
  const rent = rentForPeriod(terms, period);
  const servicePeriod = { from: period.from, to: period.to };
  const lastDay = addDays(period.to, -1);
  /** `discountedBy`: the promotion family that may discount the charge; null for none (coverage). */
  const charge = (kind: PeriodChargeKind, description: string, monthly: Pennies, discountedBy: PromotionFamily | null): PeriodCharge => {
    const amountInPennies = roundPennies(monthly * share);
    const promotions = discountedBy ? terms.promotions.filter((p) => covers(p, period.month) && sameFamily(p.family, discountedBy)) : [];
    return {
      kind,
      description,
      amountInPennies,
      dueOn: period.from,
      servicePeriod,
      itemTypeUuid: discountedBy?.kind === 'DISCOUNTED_SERVICE' ? discountedBy.itemTypeUuid : null,
      discounts: discountsOf(promotions, monthly, share, amountInPennies),
    };
  };

  const prorated = period.days < period.fullMonthDays;
  const charges = [
    charge(
      prorated ? 'MOVE_IN_PRORATION' : 'RENT',
      prorated ? `Rent ${period.from} to ${lastDay}, prorated ${period.days}/${period.fullMonthDays} days` : `Rent ${period.from} to ${lastDay}`,
      rent,
      { kind: 'RENT' },
    ),
    ...terms.services.map((service) =>
      charge('SERVICE_FEE', service.description, monthlyServiceFee(service, rent), { kind: 'DISCOUNTED_SERVICE', itemTypeUuid: service.itemTypeUuid }),
    ),
  ];
  if (terms.coverage) charges.push(charge('COVERAGE_PREMIUM', terms.coverage.description, terms.coverage.premiumInPennies, null));
  return charges.filter((c) => c.amountInPennies > 0);
}

/** A service's fee for a whole month: FIXED_AMOUNT is pennies, PERCENTAGE is percent of the month's rent. */
export function monthlyServiceFee(service: ServiceFee, rentInPennies: Pennies): Pennies {
  if (service.feeType === 'PERCENTAGE') return roundPennies((rentInPennies * service.amount) / 100);
  const amount = service.amount;
  if (!isPennies(amount)) throw new RangeError(`A FIXED_AMOUNT fee is whole pennies, got ${String(amount)} for item type ${service.itemTypeUuid}`);
  return amount;
}

/** Each promotion's month prorated like the charge, in the order given, together never more than the charge. */
function discountsOf(promotions: readonly PromotionTerms[], monthly: Pennies, share: number, amount: Pennies): PromotionDiscount[] {
  const discounts: PromotionDiscount[] = [];
  let left = amount;
  for (const promotion of promotions) {
    const discount = Math.min(left, roundPennies(monthlyDiscount(promotion, monthly) * share));
    if (discount <= 0) continue;
    discounts.push({ promotionUuid: promotion.uuid, name: promotion.name, amountInPennies: discount });
    left -= discount;
  }
  return discounts;
}

function covers(promotion: PromotionTerms, month: number): boolean {
  return month >= promotion.monthStarts && month < promotion.monthStarts + promotion.durationInMonths;
}

function sameFamily(a: PromotionFamily, b: PromotionFamily): boolean {
  return a.kind === 'RENT' ? b.kind === 'RENT' : b.kind === 'DISCOUNTED_SERVICE' && a.itemTypeUuid === b.itemTypeUuid;
}

/** What a rental starting on `startDate` is charged when it is signed: its first period's charges, and their total net of promotions. */
export function moveInCharges(terms: RentalBillingTerms, startDate: CalendarDate): { charges: PeriodCharge[]; amountDueInPennies: Pennies } {
  const charges = chargesForPeriod(terms, billingPeriodStarting(startDate, startDate));
  return { charges, amountDueInPennies: charges.reduce((sum, charge) => sum + netAmount(charge), 0) };
}
