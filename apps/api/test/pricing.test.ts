import { addDays, bestPromotionsForUnitGroup, type ItemType } from '@storage/domain';
import { demoPortfolio } from '../src/seed/demo-data';
import { seedUuid as id } from '../src/seed/seed-uuid';
import { toDomainPromotion } from '../src/shopping/promotions.service';

/** How operation 1 uses the domain's pricing: the demo's promotions, stored as onboarding stores them, mapped and priced. */
const TODAY = '2025-06-15';
const { portfolio } = demoPortfolio(TODAY);
const downtown = id('facility:downtown');
const promotions = portfolio.facilities
  .find((f) => f.uuid === downtown)!
  .promotions.map((p) =>
    toDomainPromotion({
      uuid: p.uuid,
      name: p.name,
      createdAt: new Date('2025-01-01T00:00:00Z'),
      tenantType: p.tenantType ?? 'ALL',
      isAutoPayRequired: p.isAutoPayRequired ?? false,
      discountType: p.discountType,
      percentage: p.discountType === 'PERCENTAGE' ? String(p.percentage) : null,
      amountInPennies: p.discountType === 'PERCENTAGE' ? null : (p.amountInPennies ?? null),
      monthStarts: p.monthStarts ?? 1,
      durationInMonths: p.durationInMonths ?? 1,
      unitGroupUuids: p.unitGroupUuids ?? [],
      validFrom: p.validFrom ?? null,
      validTo: p.validTo ?? null,
      family: p.family ?? 'RENT',
      itemTypeUuid: p.itemTypeUuid ?? null,
    }),
  );
const itemTypes: ItemType[] = (portfolio.itemTypes ?? []).map((row) => ({ itemTypeUuid: row.uuid, name: row.name, priceInPennies: row.priceInPennies }));
const climate = id('unit-group:downtown:10x10:1');
const small = id('unit-group:downtown:5x5:1');
const best = (unitGroupUuid: string, webRateInPennies: number, context: { isForBusiness?: boolean; isAutopayEnabled?: boolean; asOf?: string } = {}) =>
  bestPromotionsForUnitGroup({ unitGroupUuid, webRateInPennies, promotions, itemTypes, context: { asOf: TODAY, ...context } });

describe('stored promotions priced by the domain rules', () => {
  it('maps both families, numeric percentages and date windows', () => {
    const free = promotions.find((p) => p.name === 'Free lock first month')!;
    expect(free).toMatchObject({ family: { kind: 'DISCOUNTED_SERVICE', itemTypeUuid: id('item-type:lock') }, discountType: 'PERCENTAGE', percentage: 100 });
    const targeted = promotions.find((p) => p.name.startsWith('Climate units'))!;
    expect(targeted).toMatchObject({ family: { kind: 'RENT' }, validFrom: addDays(TODAY, -30), validTo: addDays(TODAY, 60) });
    expect(targeted.unitGroupUuids).toContain(climate);
  });

  it('personal shopper: the $1 first month wins the rent, $2 off 3 months the lock', () => {
    const result = best(small, 4620);
    expect(result.bestRent).toEqual({ promotionUuid: id('promotion:downtown:one-dollar'), promotionName: '$1 first month', highestDiscountAmount: 4520 });
    expect(result.serviceWinners).toEqual([
      {
        promotionUuid: id('promotion:downtown:lock-2-off'),
        promotionName: '$2 off lock for 3 months',
        highestDiscountAmount: 600,
        itemTypeUuid: id('item-type:lock'),
        itemTypeName: 'Disc lock rental',
      },
    ]);
  });

  it('business shopper: personal-only promotions drop out, the business one wins', () => {
    expect(best(small, 4620, { isForBusiness: true }).bestRent?.promotionName).toBe('$25 off for 3 months (business)');
  });

  it('autopay unlocks autopay-only promotions (the trash service winner)', () => {
    expect(best(small, 4620).serviceWinners.map((w) => w.itemTypeName)).toEqual(['Disc lock rental']);
    expect(
      best(small, 4620, { isAutopayEnabled: true })
        .serviceWinners.map((w) => w.itemTypeName)
        .sort(),
    ).toEqual(['Disc lock rental', 'Trash removal']);
  });

  it('date window: the special applies inside its window only', () => {
    const onlyExpired = promotions.filter((p) => p.name === 'Last summer special');
    const price = (asOf: string) =>
      bestPromotionsForUnitGroup({ unitGroupUuid: small, webRateInPennies: 4620, promotions: onlyExpired, itemTypes, context: { asOf } }).bestRent;
    expect(price(TODAY)).toBeNull();
    expect(price(addDays(TODAY, -350))).toMatchObject({ promotionName: 'Last summer special', highestDiscountAmount: 3465 });
  });

  it('unit group targets: the climate promotion applies to climate groups only', () => {
    const onlyClimate = promotions.filter((p) => p.name.startsWith('Climate units'));
    const price = (unitGroupUuid: string) =>
      bestPromotionsForUnitGroup({ unitGroupUuid, webRateInPennies: 10_000, promotions: onlyClimate, itemTypes, context: { asOf: TODAY } }).bestRent;
    expect(price(climate)?.highestDiscountAmount).toBe(4000);
    expect(price(small)).toBeNull();
  });

  it('a free unit (rate 0) has no rent winner', () => {
    expect(best(small, 0).bestRent).toBeNull();
  });
});
