import fc from 'fast-check';
import {
  bestPromotionsForUnitGroup,
  isPromotionEligible,
  monthlyDiscount,
  promotionAmount,
  type BestPromotionsInput,
  type ItemType,
  type Promotion,
  type PromotionContext,
} from '../../src';
import { INSURANCE_ITEM, LOCK_ITEM, OTHER_UNIT_GROUP, UNIT_GROUP } from '../support/promotions';

const UNPRICED_ITEM = 'a0000000-0000-4000-8000-000000000000';
const DATES = ['2025-01-01', '2025-03-31', '2025-06-15', '2025-09-30', '2025-12-31'];

const rate = fc.integer({ min: 0, max: 500_000 });
const itemTypes = fc.tuple(rate, rate).map(([lockPrice, insurancePrice]): ItemType[] => [
  { itemTypeUuid: LOCK_ITEM, name: 'Disc lock', priceInPennies: lockPrice },
  { itemTypeUuid: INSURANCE_ITEM, name: 'Protection plan', priceInPennies: insurancePrice },
]);

const discount = fc.oneof(
  fc.record({
    discountType: fc.constant('PERCENTAGE' as const),
    percentage: fc.oneof(fc.integer({ min: 0, max: 100 }), fc.double({ min: 0, max: 100, noNaN: true })),
    amountInPennies: fc.constant(null),
  }),
  fc.record({
    discountType: fc.constantFrom('AMOUNT_OFF' as const, 'FIXED_RATE' as const),
    percentage: fc.constant(null),
    amountInPennies: fc.integer({ min: 0, max: 600_000 }),
  }),
);

const promotionArb: fc.Arbitrary<Promotion> = fc
  .record({
    uuid: fc.uuid(),
    name: fc.string({ maxLength: 20 }),
    createdAt: fc.integer({ min: 0, max: 5 }).map((n) => new Date(Date.UTC(2024, n, 1))),
    tenantType: fc.constantFrom('PERSONAL' as const, 'BUSINESS' as const, 'ALL' as const),
    isAutoPayRequired: fc.boolean(),
    monthStarts: fc.integer({ min: 1, max: 12 }),
    durationInMonths: fc.integer({ min: 1, max: 12 }),
    unitGroupUuids: fc.subarray([UNIT_GROUP, OTHER_UNIT_GROUP]),
    validFrom: fc.option(fc.constantFrom(...DATES)),
    validTo: fc.option(fc.constantFrom(...DATES)),
    family: fc.oneof(
      fc.constant({ kind: 'RENT' as const }),
      fc.constantFrom(LOCK_ITEM, INSURANCE_ITEM, UNPRICED_ITEM).map((itemTypeUuid) => ({ kind: 'DISCOUNTED_SERVICE' as const, itemTypeUuid })),
    ),
    discount,
  })
  .map(({ discount: d, ...rest }) => ({ ...rest, ...d }));

const contextArb: fc.Arbitrary<PromotionContext> = fc.record({
  isForBusiness: fc.option(fc.boolean(), { nil: undefined }),
  isAutopayEnabled: fc.option(fc.boolean(), { nil: undefined }),
  asOf: fc.constantFrom(...DATES),
});

const inputArb: fc.Arbitrary<BestPromotionsInput> = fc.record({
  unitGroupUuid: fc.constant(UNIT_GROUP),
  webRateInPennies: rate,
  promotions: fc.array(promotionArb, { maxLength: 12 }),
  itemTypes,
  context: contextArb,
});

function eligibleAmounts(input: BestPromotionsInput, keep: (p: Promotion) => boolean, rateOf: (p: Promotion) => number): number[] {
  return input.promotions.filter((p) => keep(p) && isPromotionEligible(p, input.unitGroupUuid, input.context)).map((p) => promotionAmount(p, rateOf(p)));
}

function priceOf(input: BestPromotionsInput, itemTypeUuid: string): number | undefined {
  return (input.itemTypes as ItemType[]).find((t) => t.itemTypeUuid === itemTypeUuid)?.priceInPennies;
}

describe('bestPromotionsForUnitGroup properties', () => {
  it('the rent winner has the maximum of the eligible RENT amounts (null when that is 0 or there are none)', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const amounts = eligibleAmounts(
          input,
          (p) => p.family.kind === 'RENT',
          () => input.webRateInPennies,
        );
        const max = Math.max(0, ...amounts);
        const { bestRent } = bestPromotionsForUnitGroup(input);
        if (max === 0) expect(bestRent).toBeNull();
        else expect(bestRent?.highestDiscountAmount).toBe(max);
      }),
    );
  });

  it('each service winner has the maximum eligible amount for its item type on the item price', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const { serviceWinners } = bestPromotionsForUnitGroup(input);
        for (const itemTypeUuid of [LOCK_ITEM, INSURANCE_ITEM, UNPRICED_ITEM]) {
          const price = priceOf(input, itemTypeUuid);
          const amounts =
            price === undefined
              ? []
              : eligibleAmounts(
                  input,
                  (p) => p.family.kind === 'DISCOUNTED_SERVICE' && p.family.itemTypeUuid === itemTypeUuid,
                  () => price,
                );
          const max = Math.max(0, ...amounts);
          const winner = serviceWinners.find((w) => w.itemTypeUuid === itemTypeUuid);
          if (max === 0) expect(winner).toBeUndefined();
          else expect(winner?.highestDiscountAmount).toBe(max);
        }
        const order = serviceWinners.map((w) => w.itemTypeUuid);
        expect(order).toEqual([...order].sort());
      }),
    );
  });

  it('every winner is eligible, of the right family, and worth a positive whole number of pennies', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const { bestRent, serviceWinners } = bestPromotionsForUnitGroup(input);
        const byUuid = (uuid: string) => input.promotions.filter((p) => p.uuid === uuid);
        for (const winner of [...(bestRent ? [bestRent] : []), ...serviceWinners]) {
          expect(Number.isSafeInteger(winner.highestDiscountAmount) && winner.highestDiscountAmount > 0).toBe(true);
          expect(byUuid(winner.promotionUuid).some((p) => isPromotionEligible(p, UNIT_GROUP, input.context))).toBe(true);
        }
        if (bestRent) expect(byUuid(bestRent.promotionUuid).some((p) => p.family.kind === 'RENT')).toBe(true);
      }),
    );
  });

  it('a promotion made ineligible never wins, however large', () => {
    const ineligibleVariant = fc.constantFrom(
      (p: Promotion, c: PromotionContext): Promotion => ({ ...p, tenantType: c.isForBusiness === true ? 'PERSONAL' : 'BUSINESS' }),
      (p: Promotion, c: PromotionContext): Promotion => (c.isAutopayEnabled === true ? { ...p, validFrom: '2026-01-01' } : { ...p, isAutoPayRequired: true }),
      (p: Promotion): Promotion => ({ ...p, validTo: '2024-12-31' }),
      (p: Promotion): Promotion => ({ ...p, validFrom: '2026-01-01', validTo: null }),
      (p: Promotion): Promotion => ({ ...p, unitGroupUuids: [OTHER_UNIT_GROUP] }),
    );
    fc.assert(
      fc.property(inputArb, promotionArb, ineligibleVariant, (input, base, makeIneligible) => {
        // Version and variant 0: a uuid fc.uuid() never generates, so no other promotion shares it.
        const huge: Promotion = {
          ...base,
          uuid: 'eeeeeeee-eeee-0eee-0eee-eeeeeeeeeeee',
          discountType: 'AMOUNT_OFF',
          percentage: null,
          amountInPennies: 600_000,
          durationInMonths: 12,
        };
        const outsider = makeIneligible(huge, input.context);
        const result = bestPromotionsForUnitGroup({ ...input, promotions: [...input.promotions, outsider] });
        const winners = [result.bestRent, ...result.serviceWinners].filter((w) => w !== null);
        expect(winners.map((w) => w.promotionUuid)).not.toContain(outsider.uuid);
      }),
    );
  });

  it('does not depend on the order of the promotions', () => {
    fc.assert(
      fc.property(inputArb, fc.infiniteStream(fc.nat()), (input, seeds) => {
        const shuffled = [...input.promotions]
          .map((p) => ({ p, k: seeds.next().value as number }))
          .sort((a, b) => a.k - b.k)
          .map(({ p }) => p);
        expect(bestPromotionsForUnitGroup({ ...input, promotions: shuffled })).toEqual(bestPromotionsForUnitGroup(input));
      }),
    );
  });
});

describe('discount bounds', () => {
  it('fixed rate and amount off never exceed the rate and are never negative', () => {
    fc.assert(
      fc.property(promotionArb, rate, (p, r) => {
        const month = monthlyDiscount(p, r);
        expect(month).toBeGreaterThanOrEqual(0);
        expect(month).toBeLessThanOrEqual(r);
        const amount = promotionAmount(p, r);
        expect(amount).toBeGreaterThanOrEqual(0);
        expect(amount).toBeLessThanOrEqual(r * p.durationInMonths);
      }),
    );
  });
});
