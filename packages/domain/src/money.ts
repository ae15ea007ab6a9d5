import { z } from 'zod';

/** Money is always an integer number of pennies (minor currency units), never a float of dollars. */
export type Pennies = number;

/** A non-negative safe integer: a price, a rate, a payment. */
export function isPennies(n: unknown): n is Pennies {
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
}

/**
 * Rounds to whole pennies, half away from zero (2.5 → 3, -2.5 → -3).
 * Float noise from percent arithmetic is dropped first (15 significant digits), so a value meant as
 * x.5 that the float holds as x.4999999999 still rounds up.
 */
export function roundPennies(x: number): Pennies {
  if (!Number.isFinite(x)) throw new RangeError(`Cannot round ${x} to pennies`);
  const magnitude = Math.round(Number(Math.abs(x).toPrecision(15)));
  // Avoid -0, which serialises as 0 but fails Object.is checks.
  return magnitude === 0 ? 0 : Math.sign(x) * magnitude;
}

/** Non-negative integer pennies. */
export const penniesSchema = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);

/** Integer pennies that may be negative: a balance where negative means credit. */
export const signedPenniesSchema = z.number().int().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);
