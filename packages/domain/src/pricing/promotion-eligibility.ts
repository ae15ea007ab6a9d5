import { isCalendarDate, type CalendarDate } from '../calendar-date';
import type { Promotion } from './promotion';

/** Who is shopping and when; absent flags count as false (operation 1 makes them optional). */
export interface PromotionContext {
  isForBusiness?: boolean | undefined;
  isAutopayEnabled?: boolean | undefined;
  asOf: CalendarDate;
}

export const PROMOTION_INELIGIBILITY_REASONS = ['TENANT_TYPE', 'AUTOPAY_REQUIRED', 'OUTSIDE_DATE_WINDOW', 'UNIT_GROUP_NOT_TARGETED'] as const;
export type PromotionIneligibility = (typeof PROMOTION_INELIGIBILITY_REASONS)[number];

/** Why the promotion does not apply to this unit group and shopper, or null when it does. */
export function promotionIneligibility(promotion: Promotion, unitGroupUuid: string, context: PromotionContext): PromotionIneligibility | null {
  // Date windows compare as YYYY-MM-DD strings, which is only sound for well formed dates.
  if (!isCalendarDate(context.asOf)) throw new RangeError(`asOf must be a YYYY-MM-DD date, got ${String(context.asOf)}`);
  if (!fitsTenantType(promotion, context.isForBusiness === true)) return 'TENANT_TYPE';
  if (promotion.isAutoPayRequired && context.isAutopayEnabled !== true) return 'AUTOPAY_REQUIRED';
  if (promotion.validFrom !== null && context.asOf < promotion.validFrom) return 'OUTSIDE_DATE_WINDOW';
  if (promotion.validTo !== null && context.asOf > promotion.validTo) return 'OUTSIDE_DATE_WINDOW';
  if (promotion.unitGroupUuids.length > 0 && !targets(promotion, unitGroupUuid)) return 'UNIT_GROUP_NOT_TARGETED';
  return null;
}

export function isPromotionEligible(promotion: Promotion, unitGroupUuid: string, context: PromotionContext): boolean {
  return promotionIneligibility(promotion, unitGroupUuid, context) === null;
}

function fitsTenantType(promotion: Promotion, isForBusiness: boolean): boolean {
  switch (promotion.tenantType) {
    case 'ALL':
      return true;
    case 'BUSINESS':
      return isForBusiness;
    case 'PERSONAL':
      return !isForBusiness;
  }
}

// UUIDs compare case-insensitively: the same id may arrive upper-case from a client.
function targets(promotion: Promotion, unitGroupUuid: string): boolean {
  const wanted = unitGroupUuid.toLowerCase();
  return promotion.unitGroupUuids.some((uuid) => uuid.toLowerCase() === wanted);
}
