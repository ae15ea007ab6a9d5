import type { Promotion } from '../../src';

export const UNIT_GROUP = '6f1c2a3e-0b4d-4c5e-9f60-1a2b3c4d5e60';
export const OTHER_UNIT_GROUP = '7a2d3b4f-1c5e-4d6f-8a71-2b3c4d5e6f71';
export const LOCK_ITEM = '8b3e4c50-2d6f-4e70-9b82-3c4d5e6f7082';
export const INSURANCE_ITEM = '9c4f5d61-3e70-4f81-8c93-4d5e6f708193';

let counter = 0;

/** A valid, eligible-for-anyone RENT promotion; override what the test is about. */
export function promotion(overrides: Partial<Promotion> = {}): Promotion {
  counter += 1;
  return {
    uuid: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    name: `Promotion ${counter}`,
    createdAt: new Date('2025-01-01T00:00:00Z'),
    tenantType: 'ALL',
    isAutoPayRequired: false,
    discountType: 'AMOUNT_OFF',
    percentage: null,
    amountInPennies: 1000,
    monthStarts: 1,
    durationInMonths: 1,
    unitGroupUuids: [],
    validFrom: null,
    validTo: null,
    family: { kind: 'RENT' },
    ...overrides,
  };
}
