import { isPromotionEligible, promotionIneligibility, type PromotionContext } from '../../src';
import { OTHER_UNIT_GROUP, promotion, UNIT_GROUP } from '../support/promotions';

const asOf = '2025-06-15';
const personal: PromotionContext = { asOf };

describe('promotion eligibility', () => {
  it.each([
    ['PERSONAL', false, true],
    ['PERSONAL', true, false],
    ['BUSINESS', true, true],
    ['BUSINESS', false, false],
    ['ALL', true, true],
    ['ALL', false, true],
  ] as const)('%s promotion, isForBusiness %p → eligible %p', (tenantType, isForBusiness, eligible) => {
    expect(isPromotionEligible(promotion({ tenantType }), UNIT_GROUP, { asOf, isForBusiness })).toBe(eligible);
  });

  it('treats an absent isForBusiness as a personal tenant', () => {
    expect(promotionIneligibility(promotion({ tenantType: 'BUSINESS' }), UNIT_GROUP, personal)).toBe('TENANT_TYPE');
    expect(isPromotionEligible(promotion({ tenantType: 'PERSONAL' }), UNIT_GROUP, personal)).toBe(true);
  });

  it('requires autopay when the promotion does', () => {
    const autopay = promotion({ isAutoPayRequired: true });
    expect(promotionIneligibility(autopay, UNIT_GROUP, personal)).toBe('AUTOPAY_REQUIRED');
    expect(promotionIneligibility(autopay, UNIT_GROUP, { asOf, isAutopayEnabled: false })).toBe('AUTOPAY_REQUIRED');
    expect(isPromotionEligible(autopay, UNIT_GROUP, { asOf, isAutopayEnabled: true })).toBe(true);
    expect(isPromotionEligible(promotion(), UNIT_GROUP, { asOf, isAutopayEnabled: true })).toBe(true);
  });

  it.each([
    [null, null, true],
    ['2025-06-15', '2025-06-15', true],
    ['2025-06-01', null, true],
    [null, '2025-06-30', true],
    ['2025-06-16', null, false],
    [null, '2025-06-14', false],
  ])('window %p to %p (inclusive) → eligible %p', (validFrom, validTo, eligible) => {
    const p = promotion({ validFrom, validTo });
    expect(promotionIneligibility(p, UNIT_GROUP, personal)).toBe(eligible ? null : 'OUTSIDE_DATE_WINDOW');
  });

  it('applies to every unit group without targets, else to its targets only', () => {
    expect(isPromotionEligible(promotion({ unitGroupUuids: [] }), UNIT_GROUP, personal)).toBe(true);
    expect(isPromotionEligible(promotion({ unitGroupUuids: [UNIT_GROUP] }), UNIT_GROUP, personal)).toBe(true);
    expect(isPromotionEligible(promotion({ unitGroupUuids: [UNIT_GROUP.toUpperCase()] }), UNIT_GROUP, personal)).toBe(true);
    expect(promotionIneligibility(promotion({ unitGroupUuids: [OTHER_UNIT_GROUP] }), UNIT_GROUP, personal)).toBe('UNIT_GROUP_NOT_TARGETED');
  });

  it('refuses an asOf that is not a calendar date', () => {
    expect(() => isPromotionEligible(promotion(), UNIT_GROUP, { asOf: '15/06/2025' })).toThrow(RangeError);
  });
});
