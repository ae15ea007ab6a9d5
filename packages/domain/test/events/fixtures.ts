import { lifecycleEventId, type EventPayloads, type PublicEventType, type ServiceFee } from '../../src';

/** Realistic payloads of every event type, as a producer would build them. */

export const RENTAL = 'c2a7e0b4-5d1f-4e3a-9b6c-7d8e9f0a1b2c';
export const FACILITY = 'f3b8f1c5-6e20-4f4b-8c7d-8e9f0a1b2c3d';
export const UNIT_TYPE = 'a4c9a2d6-7f31-4a5c-9d8e-9f0a1b2c3d4e';
export const AMENITY = 'b5dab3e7-8a42-4b6d-8e9f-0a1b2c3d4e5f';
export const OCCURRED_AT = new Date('2025-04-02T14:03:27.512Z');

const lock: ServiceFee = { description: 'Disc lock', amount: 1500, feeType: 'FIXED_AMOUNT', itemTypeUuid: 'd6ebc4f8-9b53-4c7e-9f0a-1b2c3d4e5f60' };
const protection: ServiceFee = {
  description: 'Protection plan ($5,000)',
  amount: 1200,
  feeType: 'FIXED_AMOUNT',
  itemTypeUuid: 'e7fcd509-ac64-4d8f-8a1b-2c3d4e5f6071',
};

function base<E extends PublicEventType>(event: E) {
  return {
    event,
    eventId: lifecycleEventId(RENTAL, OCCURRED_AT, event),
    tenantUuid: '1d2e3f40-5a6b-4c7d-8e9f-a0b1c2d3e4f5',
    unitRental: {
      rentalRecordUuid: RENTAL,
      unitGroupUuid: '2e3f4051-6b7c-4d8e-9fa0-b1c2d3e4f506',
      unitUuid: '3f405162-7c8d-4e9f-a0b1-c2d3e4f50617',
      facilityUuid: FACILITY,
      rentalBalance: 12_900,
      startRentDate: '2024-11-15',
      endRentDate: null,
    },
    billingTemplate: {
      currentRentInPennies: 11_400,
      additionalServicesAndFees: [protection],
      promotions: [
        {
          promotionUuid: '40516273-8d9e-4fa0-b1c2-d3e4f5061728',
          promotionName: 'First month $1',
          discountType: 'FIXED_RATE' as const,
          monthStarts: 1,
          durationInMonths: 1,
          discountAmountInPennies: 11_300,
          itemTypeUuid: null,
        },
      ],
      billingDayOfMonth: 15,
      nextDueDate: '2025-04-15',
    },
    tenantBalanceInPennies: 12_900,
    primaryContact: { firstName: 'Maria', lastName: 'Okafor', phone: '(512) 555-0187', isSMSEnrolled: true, email: 'maria.okafor@example.com' },
  };
}

export const fixtures: EventPayloads = {
  'moved-in': base('moved-in'),
  'moved-out': { ...base('moved-out'), unitRental: { ...base('moved-out').unitRental, endRentDate: '2025-04-02', rentalBalance: 0 } },
  'rent-change': {
    ...base('rent-change'),
    rentChange: { previousRentInPennies: 11_400, currentRentInPennies: 12_200, rentChangeDate: '2025-04-02', rentChangeEffectiveDate: '2025-05-15' },
  },
  'delinquency-status-change': {
    ...base('delinquency-status-change'),
    delinquencyStatusChange: {
      delinquencyUuid: '5162738a-9eaf-4b01-82d3-e4f506172839',
      delinquencyPreviousStatus: 'OVERDUE',
      delinquencyNewStatus: 'OVERLOCK',
      delinquencyStatusChangeDate: '2025-03-25',
      paymentDate: null,
    },
  },
  'recurring-service-change': {
    ...base('recurring-service-change'),
    recurringServiceChange: {
      previousAdditionalServicesFees: [protection],
      currentAdditionalServicesFees: [protection, lock],
      serviceChangeDate: '2025-04-02',
      serviceChangeEffectiveDate: '2025-04-15',
    },
  },
  auction: {
    ...base('auction'),
    auction: {
      auctionUuid: '62738a9b-afb0-4c12-93e4-f5061728394a',
      auctionCanceledOnDate: null,
      auctionScheduledOnDate: '2025-04-02',
      auctionCompletedOnDate: null,
      auctionStartDate: '2025-05-01',
      auctionEndDate: '2025-05-08',
      auctionStage: 'SCHEDULED',
      minimumBidAmount: [{ amountInPennies: 25_000 }],
      winningBidAmount: [],
    },
  },
  transfer: {
    ...base('transfer'),
    transfer: {
      transferDate: '2025-04-02',
      oldUnitRentalRecordUuid: '738a9bac-b0c1-4d23-a4f5-06172839a4b5',
      oldUnitUuid: '8a9bacbd-c1d2-4e34-b506-172839a4b5c6',
      oldUnitRentAmountInPennies: 11_400,
      newUnitRentAmountInPennies: 15_900,
      transferCreditAmountInPennies: 5_320,
    },
  },
  'payment-recorded': {
    rentalRecordUuid: RENTAL,
    paymentUuid: '9bacbdce-d2e3-4f45-8617-2839a4b5c6d7',
    amountInPennies: 12_900,
    balanceAfterInPennies: 0,
    paidOn: '2025-04-02',
  },
  'charge-posted': {
    rentalRecordUuid: RENTAL,
    chargeUuid: 'acbdcedf-e3f4-4056-9728-39a4b5c6d7e8',
    amountInPennies: 2000,
    description: 'Late fee',
    balanceAfterInPennies: 14_900,
    dueDate: '2025-03-07',
  },
  'payment-declined': {
    rentalRecordUuid: RENTAL,
    attemptUuid: 'bdcedfe0-f4a5-4167-a839-4ab5c6d7e8f9',
    amountInPennies: 12_900,
    reason: 'card_declined',
    dueDate: '2025-04-01',
  },
  'webhook-test-event': { portfolio: 'acme-storage', eventType: 'rent-change' },
  'webhook-resend': { messageId: 'msg_2vKqE8Z0bXQyLr6T1pN4sWcHdF' },
  'webhook-recover': { endpointId: 'ep_2vKqE3mJ8uYtRb0sQ5wXnLcGhA', since: '2025-04-01T00:00:00.000Z' },
};
