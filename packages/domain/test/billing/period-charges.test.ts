import fc from 'fast-check';
import {
  billingPeriodStarting,
  chargesForPeriod,
  moveInCharges,
  netAmount,
  rentForPeriod,
  type PeriodCharge,
  type PromotionTerms,
  type RentalBillingTerms,
} from '../../src';
import { INSURANCE_ITEM, LOCK_ITEM, promotion } from '../support/promotions';

const terms = (overrides: Partial<RentalBillingTerms> = {}): RentalBillingTerms => ({
  rentInPennies: 10_000,
  rentChanges: [],
  services: [],
  coverage: null,
  promotions: [],
  ...overrides,
});

const rentPromotion = (overrides: Partial<PromotionTerms>): PromotionTerms => promotion(overrides);
const lock = { description: 'Lock', amount: 1_500, feeType: 'FIXED_AMOUNT' as const, itemTypeUuid: LOCK_ITEM };
const protection = { description: 'Tenant protection', amount: 10, feeType: 'PERCENTAGE' as const, itemTypeUuid: INSURANCE_ITEM };
const summary = (charges: PeriodCharge[]): [string, number, number][] => charges.map((c) => [c.kind, c.amountInPennies, netAmount(c)]);

describe('charges of a period', () => {
  const march = billingPeriodStarting('2026-03-15', '2026-03-15');

  it('a whole month: the rent, due on the first day, for the period', () => {
    expect(chargesForPeriod(terms(), march)).toEqual([
      {
        kind: 'RENT',
        description: 'Rent 2026-03-15 to 2026-04-14',
        amountInPennies: 10_000,
        dueOn: '2026-03-15',
        servicePeriod: { from: '2026-03-15', to: '2026-04-15' },
        itemTypeUuid: null,
        discounts: [],
      },
    ]);
  });

  it('a short first period is prorated by days of the billing month, fees and premium too', () => {
    const short = billingPeriodStarting('2026-01-31', '2026-01-31'); // 28 of 31 days
    const charges = chargesForPeriod(terms({ services: [lock], coverage: { description: 'Coverage', premiumInPennies: 1_200 } }), short);
    expect(summary(charges)).toEqual([
      ['MOVE_IN_PRORATION', 9_032, 9_032], // 10000 × 28/31 = 9032.26
      ['SERVICE_FEE', 1_355, 1_355], // 1500 × 28/31 = 1354.84
      ['COVERAGE_PREMIUM', 1_084, 1_084], // 1200 × 28/31 = 1083.87
    ]);
    expect(charges[0].description).toBe('Rent 2026-01-31 to 2026-02-27, prorated 28/31 days');
  });

  it('a promotion discounts the months it covers and names itself; later months pay full rent', () => {
    const secondAndThird = rentPromotion({
      name: 'Half off months 2-3',
      discountType: 'PERCENTAGE',
      percentage: 50,
      amountInPennies: null,
      monthStarts: 2,
      durationInMonths: 2,
    });
    const rental = terms({ promotions: [secondAndThird] });
    const net = ['2026-03-15', '2026-04-15', '2026-05-15', '2026-06-15'].map((due) =>
      netAmount(chargesForPeriod(rental, billingPeriodStarting('2026-03-15', due))[0]),
    );
    expect(net).toEqual([10_000, 5_000, 5_000, 10_000]);
    expect(chargesForPeriod(rental, billingPeriodStarting('2026-03-15', '2026-04-15'))[0].discounts).toEqual([
      { promotionUuid: secondAndThird.uuid, name: 'Half off months 2-3', amountInPennies: 5_000 },
    ]);
  });

  it('each discount type, on a whole month', () => {
    const month = (promo: PromotionTerms): number => netAmount(chargesForPeriod(terms({ promotions: [promo] }), march)[0]);
    expect(month(rentPromotion({ discountType: 'PERCENTAGE', percentage: 25, amountInPennies: null }))).toBe(7_500);
    expect(month(rentPromotion({ discountType: 'AMOUNT_OFF', amountInPennies: 2_500 }))).toBe(7_500);
    expect(month(rentPromotion({ discountType: 'AMOUNT_OFF', amountInPennies: 25_000 }))).toBe(0);
    expect(month(rentPromotion({ discountType: 'FIXED_RATE', amountInPennies: 100 }))).toBe(100);
    expect(month(rentPromotion({ discountType: 'FIXED_RATE', amountInPennies: 25_000 }))).toBe(10_000);
  });

  it('a first-month promotion on a short first period is prorated like the rent', () => {
    const short = billingPeriodStarting('2026-01-31', '2026-01-31');
    const oneDollar = rentPromotion({ discountType: 'FIXED_RATE', amountInPennies: 100 });
    const [rent] = chargesForPeriod(terms({ promotions: [oneDollar] }), short);
    // 9900 × 28/31 = 8941.94 off 9032: the tenant pays about 28/31 of a dollar.
    expect([rent.amountInPennies, rent.discounts[0].amountInPennies, netAmount(rent)]).toEqual([9_032, 8_942, 90]);
  });

  it('discounts of one charge never exceed it', () => {
    const both = [rentPromotion({ discountType: 'AMOUNT_OFF', amountInPennies: 7_000 }), rentPromotion({ discountType: 'AMOUNT_OFF', amountInPennies: 7_000 })];
    const [rent] = chargesForPeriod(terms({ promotions: both }), march);
    expect(rent.discounts.map((d) => d.amountInPennies)).toEqual([7_000, 3_000]);
    expect(netAmount(rent)).toBe(0);
  });

  it("service fees: FIXED_AMOUNT in pennies, PERCENTAGE of the period's rent", () => {
    expect(summary(chargesForPeriod(terms({ services: [lock, protection] }), march))).toEqual([
      ['RENT', 10_000, 10_000],
      ['SERVICE_FEE', 1_500, 1_500],
      ['SERVICE_FEE', 1_000, 1_000],
    ]);
  });

  it('a rent change applies from the first period starting on or after its effective date, percentage fees with it', () => {
    const rental = terms({ services: [protection], rentChanges: [{ effectiveDate: '2026-05-20', rentInPennies: 12_000 }] });
    const may = billingPeriodStarting('2026-03-15', '2026-05-15');
    const june = billingPeriodStarting('2026-03-15', '2026-06-15');
    expect(rentForPeriod(rental, may)).toBe(10_000);
    expect(summary(chargesForPeriod(rental, june))).toEqual([
      ['RENT', 12_000, 12_000],
      ['SERVICE_FEE', 1_200, 1_200],
    ]);
    const onTheDay = terms({ rentChanges: [{ effectiveDate: '2026-05-15', rentInPennies: 11_000 }] });
    expect(rentForPeriod(onTheDay, may)).toBe(11_000);
  });

  it('the latest change in effect wins, whatever order the changes are listed in', () => {
    const rental = terms({
      rentChanges: [
        { effectiveDate: '2026-06-01', rentInPennies: 13_000 },
        { effectiveDate: '2026-04-01', rentInPennies: 11_000 },
      ],
    });
    expect(rentForPeriod(rental, billingPeriodStarting('2026-03-15', '2026-05-15'))).toBe(11_000);
    expect(rentForPeriod(rental, billingPeriodStarting('2026-03-15', '2026-06-15'))).toBe(13_000);
  });

  it('a service promotion discounts its item type only; a rent promotion discounts neither services nor coverage', () => {
    const freeLock = rentPromotion({
      name: 'Free lock',
      family: { kind: 'DISCOUNTED_SERVICE', itemTypeUuid: LOCK_ITEM },
      discountType: 'PERCENTAGE',
      percentage: 100,
      amountInPennies: null,
    });
    const rentOff = rentPromotion({ discountType: 'AMOUNT_OFF', amountInPennies: 1_000 });
    const rental = terms({ services: [lock, protection], coverage: { description: 'Coverage', premiumInPennies: 900 }, promotions: [freeLock, rentOff] });
    expect(summary(chargesForPeriod(rental, march))).toEqual([
      ['RENT', 10_000, 9_000],
      ['SERVICE_FEE', 1_500, 0],
      ['SERVICE_FEE', 1_000, 1_000],
      ['COVERAGE_PREMIUM', 900, 900],
    ]);
  });

  it('leaves out charges of zero', () => {
    expect(summary(chargesForPeriod(terms({ services: [{ ...lock, amount: 0 }] }), march))).toEqual([['RENT', 10_000, 10_000]]);
  });

  it('refuses a FIXED_AMOUNT fee that is not whole pennies', () => {
    expect(() => chargesForPeriod(terms({ services: [{ ...lock, amount: 12.5 }] }), march)).toThrow(RangeError);
  });

  it('for any rental and period: each charge at most its whole month, discounts at most the charge', () => {
    const promo = fc.record({
      discountType: fc.constantFrom('PERCENTAGE' as const, 'AMOUNT_OFF' as const, 'FIXED_RATE' as const),
      percentage: fc.integer({ min: 0, max: 100 }),
      amountInPennies: fc.integer({ min: 0, max: 30_000 }),
      monthStarts: fc.integer({ min: 1, max: 4 }),
      durationInMonths: fc.integer({ min: 1, max: 3 }),
      service: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 730 }),
        fc.integer({ min: 0, max: 9 }),
        fc.integer({ min: 0, max: 50_000 }),
        fc.array(promo, { maxLength: 3 }),
        (startOffset, monthsLater, rent, promos) => {
          const start = new Date(Date.UTC(2026, 0, 1 + startOffset)).toISOString().slice(0, 10);
          let period = billingPeriodStarting(start, start);
          for (let i = 0; i < monthsLater; i++) period = billingPeriodStarting(start, period.to);
          const rental = terms({
            rentInPennies: rent,
            services: [lock, protection],
            promotions: promos.map((p) =>
              rentPromotion({ ...p, family: p.service ? { kind: 'DISCOUNTED_SERVICE', itemTypeUuid: LOCK_ITEM } : { kind: 'RENT' } }),
            ),
          });
          for (const charge of chargesForPeriod(rental, period)) {
            expect(charge.amountInPennies).toBeGreaterThan(0);
            expect(netAmount(charge)).toBeGreaterThanOrEqual(0);
            expect(charge.discounts.every((d) => d.amountInPennies > 0)).toBe(true);
            if (charge.kind === 'RENT' || charge.kind === 'MOVE_IN_PRORATION') expect(charge.amountInPennies).toBeLessThanOrEqual(rent);
            if (period.month > 4 + 3) expect(charge.discounts).toEqual([]);
          }
        },
      ),
    );
  });
});

describe('move-in charges', () => {
  it('are the first period: prorated from a move-in on the 30th to the 28th, the first month promotion off, the total net', () => {
    const rental = terms({
      rentInPennies: 10_000,
      services: [lock],
      promotions: [rentPromotion({ discountType: 'PERCENTAGE', percentage: 50, monthStarts: 1, durationInMonths: 1 })],
    });
    const { charges, amountDueInPennies } = moveInCharges(rental, '2026-01-30');
    // 2026-01-30 to 2026-02-28: 29 days of the month that ends on Feb 28th (Jan 28th to Feb 28th: 31 days).
    expect(summary(charges)).toEqual([
      ['MOVE_IN_PRORATION', 9_355, 4_678],
      ['SERVICE_FEE', 1_403, 1_403],
    ]);
    expect(amountDueInPennies).toBe(4_678 + 1_403);
  });
});
