import type { EventEnvelope } from '@storage/domain';
import type { FacilityFixture, RentalFixture } from './fixtures';

/** What an event's base payload shows of a rental seeded by `seedRental` at that moment. */
export interface RentalShown {
  balance: number;
  nextDueDate: string;
  endRentDate?: string;
  /** The rental has moved out, its recurring service ended with it. */
  servicesEnded?: boolean;
}

/** The envelope and the spec 6.2 base payload of an event about a fixture rental, field by field. */
export function expectBasePayload(
  event: EventEnvelope<'delinquency-status-change' | 'auction' | 'moved-out'>,
  facility: FacilityFixture,
  rental: RentalFixture,
  shown: RentalShown,
): void {
  expect(event.portfolio).toBe(facility.portfolioId);
  expect(event.key).toBe(rental.rentalRecordUuid);
  expect(event.filters).toEqual({ facilityUuid: facility.facilityUuid, unitType: facility.unitTypeUuid, amenityUuids: facility.amenityUuids });
  expect(event.eventId).toBe(`${rental.rentalRecordUuid}-${Date.parse(event.occurredAt)}-${event.type}`);
  expect(event.payload.eventId).toBe(event.eventId);
  expect(event.payload.event).toBe(event.type);
  expect(event.payload.tenantUuid).toBe(rental.personUuid);
  expect(event.payload.unitRental).toEqual({
    rentalRecordUuid: rental.rentalRecordUuid,
    unitGroupUuid: facility.unitGroupUuid,
    unitUuid: rental.unitUuid,
    facilityUuid: facility.facilityUuid,
    rentalBalance: shown.balance,
    startRentDate: '2024-01-01',
    endRentDate: shown.endRentDate ?? null,
  });
  expect(event.payload.billingTemplate).toEqual({
    currentRentInPennies: 10000,
    additionalServicesAndFees: shown.servicesEnded
      ? []
      : [{ description: 'Tenant protection', amount: 1200, feeType: 'FIXED_AMOUNT', itemTypeUuid: rental.serviceItemTypeUuid }],
    promotions: [],
    billingDayOfMonth: 1,
    nextDueDate: shown.nextDueDate,
  });
  expect(event.payload.tenantBalanceInPennies).toBe(shown.balance);
  expect(event.payload.primaryContact).toEqual({ firstName: 'Ada', lastName: 'Lovelace', phone: '5125550101', isSMSEnrolled: true, email: 'ada@example.com' });
}
