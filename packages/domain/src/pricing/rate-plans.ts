import { isPennies, roundPennies, type Pennies } from '../money';

/**
 * One band of a rate plan. A band holds occupancy o when min <= o < max, and a band whose max is 100
 * also holds 100 (a full unit group). So contiguous bands 0-50, 50-80, 80-100 never overlap.
 */
export interface OccupancyBand {
  minOccupancyPercent: number;
  maxOccupancyPercent: number;
  streetAdjustmentPercent: number;
  webAdjustmentPercent: number;
}

export interface CurrentRatesInput {
  baseStreetRateInPennies: Pennies;
  baseWebRateInPennies: Pennies;
  occupancyPercent: number;
  bands: readonly OccupancyBand[];
}

export interface CurrentRates {
  currentStreetRateInPennies: Pennies;
  currentWebRateInPennies: Pennies;
}

/** Occupied share of a unit group in percent, unrounded; 0 for a group without units. */
export function occupancyPercent(numUnits: number, numOccupied: number): number {
  if (!Number.isSafeInteger(numUnits) || !Number.isSafeInteger(numOccupied) || numUnits < 0 || numOccupied < 0) {
    throw new RangeError(`Unit counts must be non-negative integers, got ${numOccupied} of ${numUnits}`);
  }
  if (numOccupied > numUnits) throw new RangeError(`${numOccupied} occupied units exceed the ${numUnits} units`);
  return numUnits === 0 ? 0 : (numOccupied / numUnits) * 100;
}

/** The band holding the occupancy; the first in list order when bands overlap; null when none does. */
export function bandFor(occupancy: number, bands: readonly OccupancyBand[]): OccupancyBand | null {
  return bands.find((band) => holds(band, occupancy)) ?? null;
}

/**
 * Current rates = base × (1 + adjustment / 100) of the band holding the occupancy, rounded to pennies
 * and floored at 0. Without a holding band the base rates apply unchanged.
 */
export function currentRates(input: CurrentRatesInput): CurrentRates {
  const { baseStreetRateInPennies, baseWebRateInPennies } = input;
  if (!isPennies(baseStreetRateInPennies) || !isPennies(baseWebRateInPennies)) {
    throw new RangeError(`Base rates must be non-negative integer pennies, got ${baseStreetRateInPennies} and ${baseWebRateInPennies}`);
  }
  const band = bandFor(input.occupancyPercent, input.bands);
  if (band === null) return { currentStreetRateInPennies: baseStreetRateInPennies, currentWebRateInPennies: baseWebRateInPennies };
  return {
    currentStreetRateInPennies: adjusted(baseStreetRateInPennies, band.streetAdjustmentPercent),
    currentWebRateInPennies: adjusted(baseWebRateInPennies, band.webAdjustmentPercent),
  };
}

function holds(band: OccupancyBand, occupancy: number): boolean {
  if (occupancy < band.minOccupancyPercent) return false;
  return occupancy < band.maxOccupancyPercent || (occupancy === 100 && band.maxOccupancyPercent === 100);
}

function adjusted(base: Pennies, adjustmentPercent: number): Pennies {
  if (!Number.isFinite(adjustmentPercent)) throw new RangeError(`Adjustment must be a finite percent, got ${adjustmentPercent}`);
  return Math.max(0, roundPennies((base * (100 + adjustmentPercent)) / 100));
}
