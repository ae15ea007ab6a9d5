import { isPennies, penniesSchema, roundPennies, signedPenniesSchema } from '../src';

describe('isPennies', () => {
  it.each([0, 1, 199_99, Number.MAX_SAFE_INTEGER])('accepts %p', (n) => expect(isPennies(n)).toBe(true));
  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER + 1, '100', null])('refuses %p', (n) => expect(isPennies(n)).toBe(false));
});

describe('roundPennies', () => {
  it.each([
    [2.5, 3],
    [-2.5, -3],
    [2.4999, 2],
    [-2.4999, -2],
    [0.5, 1],
    [-0.5, -1],
    [1000, 1000],
  ])('rounds %p half away from zero to %p', (x, expected) => expect(roundPennies(x)).toBe(expected));

  it('rounds a half that float arithmetic stored slightly below .5 up', () => {
    // 1.005 * 100 is 100.49999999999999 in binary floating point.
    expect(roundPennies(1.005 * 100)).toBe(101);
  });

  it('never returns -0', () => expect(Object.is(roundPennies(-0.2), 0)).toBe(true));

  it.each([Number.NaN, Number.POSITIVE_INFINITY])('refuses %p', (x) => expect(() => roundPennies(x)).toThrow(RangeError));
});

describe('pennies schemas', () => {
  it('penniesSchema takes non-negative integers only', () => {
    expect(penniesSchema.safeParse(1999).success).toBe(true);
    expect(penniesSchema.safeParse(-1).success).toBe(false);
    expect(penniesSchema.safeParse(19.99).success).toBe(false);
  });

  it('signedPenniesSchema takes a credit (negative) balance', () => {
    expect(signedPenniesSchema.safeParse(-2500).success).toBe(true);
    expect(signedPenniesSchema.safeParse(-0.5).success).toBe(false);
  });
});
