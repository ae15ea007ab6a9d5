import { randomUUID } from 'node:crypto';
import type { PausableStatus, RentalDelinquencyStatus } from '@storage/domain';
import type { RentalEventContext } from '@storage/rental-events';
import type { LockedRental } from '../../src/locked-rental';

/** A rental as the writers read it under its lock: in `status` (CURRENT: never delinquent, no delinquency row). */
export function lockedRental(
  status: RentalDelinquencyStatus,
  rest: {
    pausedFrom?: PausableStatus | null;
    balanceInPennies?: number;
    oldestOpenDueOn?: string | null;
    facilityToday?: string;
    pastDueSince?: string | null;
    statusChangedOn?: string | null;
    lastEventAt?: Date | null;
    active?: boolean;
  } = {},
): LockedRental {
  return {
    rentalRecordUuid: randomUUID(),
    facilityUuid: randomUUID(),
    unitUuid: randomUUID(),
    active: rest.active ?? true,
    balanceInPennies: rest.balanceInPennies ?? 10_000,
    oldestOpenDueOn: rest.oldestOpenDueOn === undefined ? '2025-03-01' : rest.oldestOpenDueOn,
    facilityToday: rest.facilityToday ?? '2025-06-01',
    delinquency:
      status === 'CURRENT'
        ? null
        : {
            delinquencyUuid: randomUUID(),
            status,
            pausedFrom: status === 'PAUSED' ? (rest.pausedFrom ?? 'OVERDUE') : null,
            pastDueSince: rest.pastDueSince === undefined ? '2025-03-01' : rest.pastDueSince,
            statusChangedOn: rest.statusChangedOn === undefined ? '2025-05-01' : rest.statusChangedOn,
            lastBusinessDate: '2025-05-01',
            lastEventAt: rest.lastEventAt ?? null,
          },
  };
}

/** The rental's event context as read: its balance, and the tenant's (`otherRentalsInPennies` more on other rentals). */
export function eventContextOf(rental: LockedRental, otherRentalsInPennies = 0): RentalEventContext {
  return {
    portfolio: 'demo',
    base: {
      tenantUuid: randomUUID(),
      unitRental: {
        rentalRecordUuid: rental.rentalRecordUuid,
        unitGroupUuid: randomUUID(),
        unitUuid: rental.unitUuid,
        facilityUuid: rental.facilityUuid,
        rentalBalance: rental.balanceInPennies,
        startRentDate: '2025-01-01',
        endRentDate: null,
      },
      billingTemplate: { currentRentInPennies: 9000, additionalServicesAndFees: [], promotions: [], billingDayOfMonth: 1, nextDueDate: '2025-07-01' },
      tenantBalanceInPennies: rental.balanceInPennies + otherRentalsInPennies,
      primaryContact: { firstName: 'Ada', lastName: 'Lovelace', phone: '', isSMSEnrolled: false, email: '' },
    },
    filters: { unitType: null, amenityUuids: [] },
  };
}
