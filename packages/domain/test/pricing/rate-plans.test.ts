import fc from 'fast-check';
import { bandFor, currentRates, occupancyPercent, type OccupancyBand } from '../../src';

const band = (min: number, max: number, street: number, web: number): OccupancyBand => ({
  minOccupancyPercent: min,
  maxOccupancyPercent: max,
  streetAdjustmentPercent: street,
  webAdjustmentPercent: web,
});
const plan = [band(0, 50, -10, -15), band(50, 90, 0, -5), band(90, 100, 10, 5)];

describe('occupancyPercent', () => {
  it('is the occupied share in percent, 0 without units', () => {
    expect(occupancyPercent(40, 30)).toBe(75);
    expect(occupancyPercent(3, 1)).toBeCloseTo(33.333, 3);
    expect(occupancyPercent(0, 0)).toBe(0);
  });

  it.each([
    [10, 11],
    [-1, 0],
    [10, 2.5],
  ])('refuses %p units with %p occupied', (units, occupied) => expect(() => occupancyPercent(units, occupied)).toThrow(RangeError));
});

describe('bands', () => {
  it.each([
    [0, 0],
    [49.99, 0],
    [50, 1],
    [89.9, 1],
    [90, 2],
    [100, 2],
  ])('occupancy %p is held by band %p (min inclusive, max exclusive, 100 held by a band ending at 100)', (occupancy, index) => {
    expect(bandFor(occupancy, plan)).toBe(plan[index]);
  });

  it('holds no occupancy outside every band', () => {
    expect(bandFor(100, [band(0, 99, 0, 0)])).toBeNull();
    expect(bandFor(10, [band(20, 100, 0, 0)])).toBeNull();
  });

  it('takes the first band in list order when bands overlap', () => {
    const overlapping = [band(0, 80, 1, 1), band(50, 100, 2, 2)];
    expect(bandFor(60, overlapping)).toBe(overlapping[0]);
  });
});

describe('currentRates', () => {
  it('applies the adjustments of the band holding the occupancy, rounded to pennies', () => {
    expect(currentRates({ baseStreetRateInPennies: 12_345, baseWebRateInPennies: 11_111, occupancyPercent: 95, bands: plan })).toEqual({
      currentStreetRateInPennies: 13_580, // 13 579.5 → 13 580
      currentWebRateInPennies: 11_667, // 11 666.55 → 11 667
    });
    expect(currentRates({ baseStreetRateInPennies: 10_000, baseWebRateInPennies: 10_000, occupancyPercent: 20, bands: plan })).toEqual({
      currentStreetRateInPennies: 9000,
      currentWebRateInPennies: 8500,
    });
  });

  it('keeps the base rates without a holding band or without bands', () => {
    const base = { baseStreetRateInPennies: 10_000, baseWebRateInPennies: 9000 };
    expect(currentRates({ ...base, occupancyPercent: 50, bands: [] })).toEqual({ currentStreetRateInPennies: 10_000, currentWebRateInPennies: 9000 });
  });

  it('floors a rate at 0', () => {
    const rates = currentRates({ baseStreetRateInPennies: 10_000, baseWebRateInPennies: 10_000, occupancyPercent: 10, bands: [band(0, 100, -150, -100)] });
    expect(rates).toEqual({ currentStreetRateInPennies: 0, currentWebRateInPennies: 0 });
  });

  it('refuses base rates that are not pennies', () => {
    expect(() => currentRates({ baseStreetRateInPennies: -1, baseWebRateInPennies: 0, occupancyPercent: 0, bands: plan })).toThrow(RangeError);
  });

  it('properties: whole non-negative pennies, and contiguous bands cover every occupancy exactly once', () => {
    const cuts = fc.uniqueArray(fc.integer({ min: 1, max: 99 }), { maxLength: 5 }).map((c) => [0, ...c.sort((a, b) => a - b), 100]);
    const adjustment = fc.integer({ min: -200, max: 200 });
    fc.assert(
      fc.property(
        cuts,
        fc.array(fc.tuple(adjustment, adjustment), { minLength: 6, maxLength: 6 }),
        fc.integer({ min: 0, max: 500 }),
        fc.integer({ min: 0, max: 500 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        (edges, adjustments, units, occupiedSeed, street, web) => {
          const bands = edges.slice(1).map((max, i) => band(edges[i], max, adjustments[i][0], adjustments[i][1]));
          const occupancy = occupancyPercent(units, units === 0 ? 0 : occupiedSeed % (units + 1));
          expect(bands.filter((b) => bandFor(occupancy, [b]) !== null)).toHaveLength(1);
          const rates = currentRates({ baseStreetRateInPennies: street, baseWebRateInPennies: web, occupancyPercent: occupancy, bands });
          for (const r of [rates.currentStreetRateInPennies, rates.currentWebRateInPennies]) {
            expect(Number.isSafeInteger(r) && r >= 0).toBe(true);
          }
        },
      ),
    );
  });
});
