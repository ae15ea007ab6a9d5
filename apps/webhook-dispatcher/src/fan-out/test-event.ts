import { lifecycleEventId, type PublicEventType } from '@storage/domain';
import type { FanOutEvent } from './fan-out';

/** Marks test payloads: an all-zero rental, so receivers can tell them apart from real events. */
const TEST_UUID = '00000000-0000-0000-0000-000000000000';

const baseFields = {
  tenantUuid: TEST_UUID,
  tenantBalanceInPennies: 0,
  primaryContact: { firstName: 'Test', lastName: 'Tenant', phone: '(555) 555-0100', isSMSEnrolled: false, email: 'test.tenant@example.com' },
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

/** Operation 19's message: a sample payload of the event type, sent to every subscribed endpoint regardless of filters. */
export function testEvent(portfolio: string, type: PublicEventType, now: Date): FanOutEvent {
  const day = now.toISOString().slice(0, 10);
  const eventId = lifecycleEventId(TEST_UUID, now, type);
  return {
    eventId,
    type,
    portfolio,
    filters: { facilityUuid: null, unitType: null, amenityUuids: [] },
    payload: {
      event: type,
      eventId,
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
    },
  };
}
