import { bestPromotionsForUnitGroup, type BestPromotionsInput, type ItemType } from '../../src';
import { INSURANCE_ITEM, LOCK_ITEM, OTHER_UNIT_GROUP, promotion, UNIT_GROUP } from '../support/promotions';

const lock: ItemType = { itemTypeUuid: LOCK_ITEM, name: 'Disc lock', priceInPennies: 1500 };
const insurance: ItemType = { itemTypeUuid: INSURANCE_ITEM, name: 'Protection plan', priceInPennies: 1200 };

function input(overrides: Partial<BestPromotionsInput>): BestPromotionsInput {
  return {
    unitGroupUuid: UNIT_GROUP,
    webRateInPennies: 10_000,
    promotions: [],
    itemTypes: [lock, insurance],
    context: { asOf: '2025-06-15' },
    ...overrides,
  };
}

describe('bestPromotionsForUnitGroup', () => {
  it('returns nothing without promotions', () => {
    expect(bestPromotionsForUnitGroup(input({}))).toEqual({ bestRent: null, serviceWinners: [] });
  });

  it('picks the RENT promotion with the largest amount on the web rate', () => {
    const tenOff = promotion({ name: '$10 off', amountInPennies: 1000 });
    const halfOff = promotion({ name: 'Half off first month', discountType: 'PERCENTAGE', percentage: 50, amountInPennies: null });
    const dollar = promotion({ name: '$1 first month', discountType: 'FIXED_RATE', amountInPennies: 100 });
    const result = bestPromotionsForUnitGroup(input({ promotions: [tenOff, halfOff, dollar] }));
    expect(result.bestRent).toEqual({ promotionUuid: dollar.uuid, promotionName: '$1 first month', highestDiscountAmount: 9900 });
  });

  it('a longer promotion wins by its total', () => {
    const oneMonth = promotion({ amountInPennies: 5000 });
    const threeMonths = promotion({ amountInPennies: 2000, durationInMonths: 3 });
    expect(bestPromotionsForUnitGroup(input({ promotions: [oneMonth, threeMonths] })).bestRent?.promotionUuid).toBe(threeMonths.uuid);
  });

  it('breaks ties by the earlier createdAt, then the smaller uuid, whatever the input order', () => {
    const older = promotion({ createdAt: new Date('2024-01-01T00:00:00Z') });
    const newer = promotion({ createdAt: new Date('2025-01-01T00:00:00Z') });
    expect(bestPromotionsForUnitGroup(input({ promotions: [newer, older] })).bestRent?.promotionUuid).toBe(older.uuid);
    expect(bestPromotionsForUnitGroup(input({ promotions: [older, newer] })).bestRent?.promotionUuid).toBe(older.uuid);

    const a = promotion({ uuid: '00000000-0000-4000-8000-00000000000a' });
    const b = promotion({ uuid: '00000000-0000-4000-8000-00000000000b' });
    expect(bestPromotionsForUnitGroup(input({ promotions: [b, a] })).bestRent?.promotionUuid).toBe(a.uuid);
  });

  it('skips ineligible promotions however large', () => {
    const big = { amountInPennies: 10_000, durationInMonths: 12 };
    const small = promotion({ amountInPennies: 100 });
    const ineligible = [
      promotion({ ...big, tenantType: 'BUSINESS' }),
      promotion({ ...big, isAutoPayRequired: true }),
      promotion({ ...big, validTo: '2025-06-14' }),
      promotion({ ...big, unitGroupUuids: [OTHER_UNIT_GROUP] }),
    ];
    expect(bestPromotionsForUnitGroup(input({ promotions: [...ineligible, small] })).bestRent?.promotionUuid).toBe(small.uuid);
  });

  it('does not name a winner worth nothing', () => {
    const aboveRate = promotion({ discountType: 'FIXED_RATE', amountInPennies: 20_000 });
    expect(bestPromotionsForUnitGroup(input({ promotions: [aboveRate] })).bestRent).toBeNull();
  });

  it('picks the best DISCOUNTED_SERVICE promotion per item type on its price, ordered by item type', () => {
    const lockHalf = promotion({
      name: 'Half-price lock',
      discountType: 'PERCENTAGE',
      percentage: 50,
      amountInPennies: null,
      family: { kind: 'DISCOUNTED_SERVICE', itemTypeUuid: LOCK_ITEM },
    });
    const lockFree = promotion({
      name: 'Free lock',
      discountType: 'FIXED_RATE',
      amountInPennies: 0,
      family: { kind: 'DISCOUNTED_SERVICE', itemTypeUuid: LOCK_ITEM },
    });
    const insuranceMonth = promotion({
      name: 'Protection $2 off for 6 months',
      amountInPennies: 200,
      durationInMonths: 6,
      family: { kind: 'DISCOUNTED_SERVICE', itemTypeUuid: INSURANCE_ITEM },
    });
    const result = bestPromotionsForUnitGroup(input({ promotions: [lockHalf, insuranceMonth, lockFree] }));
    expect(result.bestRent).toBeNull();
    expect(result.serviceWinners).toEqual([
      { promotionUuid: lockFree.uuid, promotionName: 'Free lock', highestDiscountAmount: 1500, itemTypeUuid: LOCK_ITEM, itemTypeName: 'Disc lock' },
      {
        promotionUuid: insuranceMonth.uuid,
        promotionName: 'Protection $2 off for 6 months',
        highestDiscountAmount: 1200,
        itemTypeUuid: INSURANCE_ITEM,
        itemTypeName: 'Protection plan',
      },
    ]);
  });

  it('accepts item types as a Map and skips a service promotion whose item type has no price', () => {
    const unknownItem = promotion({ family: { kind: 'DISCOUNTED_SERVICE', itemTypeUuid: 'a0000000-0000-4000-8000-000000000000' } });
    const lockOff = promotion({ amountInPennies: 300, family: { kind: 'DISCOUNTED_SERVICE', itemTypeUuid: LOCK_ITEM.toUpperCase() } });
    const result = bestPromotionsForUnitGroup(input({ promotions: [unknownItem, lockOff], itemTypes: new Map([[LOCK_ITEM, lock]]) }));
    expect(result.serviceWinners).toEqual([
      { promotionUuid: lockOff.uuid, promotionName: lockOff.name, highestDiscountAmount: 300, itemTypeUuid: LOCK_ITEM, itemTypeName: 'Disc lock' },
    ]);
  });

  it('keeps rent and service winners apart', () => {
    const rent = promotion({ amountInPennies: 500 });
    const service = promotion({ amountInPennies: 900, family: { kind: 'DISCOUNTED_SERVICE', itemTypeUuid: LOCK_ITEM } });
    const result = bestPromotionsForUnitGroup(input({ promotions: [rent, service] }));
    expect(result.bestRent?.promotionUuid).toBe(rent.uuid);
    expect(result.serviceWinners.map((w) => w.promotionUuid)).toEqual([service.uuid]);
  });
});
