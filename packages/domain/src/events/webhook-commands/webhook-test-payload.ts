import { parseEventPayload, type EventPayloads } from '../event-payloads';
import type { PublicEventType } from '../event-types';
import { lifecycleEventId } from '../tenant-lifecycle/event-id';

/** The rental of test payloads: all-zero (the delivery body's `test: true` is what marks them). */
export const WEBHOOK_TEST_UUID = '00000000-0000-0000-0000-000000000000';
const TEST_UUID = WEBHOOK_TEST_UUID;

/** The phone as real events carry it: ten digits, as the records store it (`normalizePhone`). */
const baseFields = {
  tenantUuid: TEST_UUID,
  tenantBalanceInPennies: 0,
  primaryContact: { firstName: 'Test', lastName: 'Tenant', phone: '5555550100', isSMSEnrolled: false, email: 'test.tenant@example.com' },
};

function addedObject(type: PublicEventType, day: string): Record<string, unknown> {
  switch (type) {
    case 'moved-in':
    case 'moved-out':
      return {};
    case 'rent-change':
      return { rentChange: { previousRentInPennies: 10_000, currentRentInPennies: 11_000, rentChangeDate: day, rentChangeEffectiveDate: day } };
    case 'delinquency-status-change':
      return {
        delinquencyStatusChange: {
          delinquencyUuid: TEST_UUID,
          delinquencyPreviousStatus: 'OVERDUE',
          delinquencyNewStatus: 'OVERLOCK',
          delinquencyStatusChangeDate: day,
          paymentDate: null,
        },
      };
    case 'recurring-service-change':
      return {
        recurringServiceChange: {
          previousAdditionalServicesFees: [],
          currentAdditionalServicesFees: [],
          serviceChangeDate: day,
          serviceChangeEffectiveDate: day,
        },
      };
    case 'auction':
      return {
        auction: {
          auctionUuid: TEST_UUID,
          auctionCanceledOnDate: null,
          auctionScheduledOnDate: day,
          auctionCompletedOnDate: null,
          auctionStartDate: day,
          auctionEndDate: day,
          auctionStage: 'SCHEDULED',
          minimumBidAmount: [],
          winningBidAmount: [],
        },
      };
    case 'transfer':
      return {
        transfer: {
          transferDate: day,
          oldUnitRentalRecordUuid: TEST_UUID,
          oldUnitUuid: TEST_UUID,
          oldUnitRentAmountInPennies: 10_000,
          newUnitRentAmountInPennies: 12_000,
          transferCreditAmountInPennies: 0,
        },
      };
  }
}

/**
 * Operation 19's payload: a sample event of the type, the same shape as a real one (receivers and the published
 * documents rely on it), at `now`, on the all-zero rental.
 */
export function webhookTestPayload<T extends PublicEventType>(type: T, now: Date): EventPayloads[T] {
  const day = now.toISOString().slice(0, 10);
  return parseEventPayload(type, {
    event: type,
    eventId: lifecycleEventId(TEST_UUID, now, type),
    ...baseFields,
    unitRental: {
      rentalRecordUuid: TEST_UUID,
      unitGroupUuid: TEST_UUID,
      unitUuid: TEST_UUID,
      facilityUuid: TEST_UUID,
      rentalBalance: 0,
      startRentDate: day,
      endRentDate: null,
    },
    billingTemplate: { currentRentInPennies: 10_000, additionalServicesAndFees: [], promotions: [], billingDayOfMonth: 1, nextDueDate: day },
    ...addedObject(type, day),
  });
}
