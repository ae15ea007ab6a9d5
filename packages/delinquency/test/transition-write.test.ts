import { randomUUID } from 'node:crypto';
import type { RentalEventContext } from '@storage/rental-events';
import type { AuctionRow } from '../src/auctions';
import { DelinquencyConflict } from '../src/errors';
import type { LockedRental } from '../src/locked-rental';
import { transitionWrite, type TransitionInput } from '../src/transition-write';

const today = '2025-06-01';

function rentalIn(status: 'CURRENT' | 'AUCTION', balanceInPennies: number): LockedRental {
  return {
    rentalRecordUuid: randomUUID(),
    facilityUuid: randomUUID(),
    unitUuid: randomUUID(),
    active: true,
    balanceInPennies,
    oldestOpenDueOn: '2025-03-01',
    facilityToday: today,
    delinquency:
      status === 'CURRENT'
        ? null
        : {
            delinquencyUuid: randomUUID(),
            status,
            pausedFrom: null,
            pastDueSince: '2025-03-01',
            statusChangedOn: '2025-05-01',
            lastBusinessDate: '2025-05-01',
            lastEventAt: null,
          },
  };
}

function contextOf(rental: LockedRental): RentalEventContext {
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
      tenantBalanceInPennies: rental.balanceInPennies,
      primaryContact: { firstName: 'Ada', lastName: 'Lovelace', phone: '', isSMSEnrolled: false, email: '' },
    },
    filters: { unitType: null, amenityUuids: [] },
  };
}

function input(rental: LockedRental, rest: Pick<TransitionInput, 'transition'> & Partial<TransitionInput>): TransitionInput {
  return { rental, pendingAuction: null, context: contextOf(rental), stateVersion: null, ...rest };
}

const payloads = (envelopes: string) => (JSON.parse(envelopes) as { payload: Record<string, unknown> }[]).map((envelope) => envelope.payload);

describe('transitionWrite', () => {
  it('writes off what is owed through the ledger, cancels the pending auction first and restores the gate code', () => {
    const rental = rentalIn('AUCTION', 12_000);
    const delinquencyUuid = rental.delinquency!.delinquencyUuid;
    const auction: AuctionRow = {
      uuid: randomUUID(),
      rentalRecordUuid: rental.rentalRecordUuid,
      delinquencyUuid,
      facilityUuid: rental.facilityUuid,
      stage: 'CREATED',
      scheduledOn: '2025-06-15',
      startDate: '2025-06-15',
      endDate: '2025-06-22',
      canceledOn: null,
      completedOn: null,
      minimumBidInPennies: 12_000,
      winningBidInPennies: null,
    };
    const { arguments: args, view } = transitionWrite(
      input(rental, { transition: { from: 'AUCTION', to: 'WRITTEN_OFF', trigger: 'WRITE_OFF', effectiveDate: today }, pendingAuction: auction }),
    );

    expect(view).toMatchObject({ status: 'WRITTEN_OFF', delinquencyUuid, statusChangedOn: today });
    expect(JSON.parse(args.ledgerEntries)).toEqual([expect.objectContaining({ kind: 'WRITE_OFF', amount_in_pennies: -12_000, posted_on: today })]);
    expect(args.writtenOffInPennies).toBe(12_000);
    expect(args.gate).toBe('RESTORE');
    expect(JSON.parse(args.auctions)).toEqual([expect.objectContaining({ uuid: auction.uuid, stage: 'CANCELED', canceled_on: today })]);
    expect(args.types).toEqual(['auction', 'delinquency-status-change']);
    // The payloads show the balance the write-off leaves.
    for (const payload of payloads(args.envelopes)) {
      expect(payload).toMatchObject({ unitRental: { rentalBalance: 0 }, tenantBalanceInPennies: 0 });
    }
  });

  it('starts an episode with the late fee on the balance and its charge-posted before the status change', () => {
    const rental = rentalIn('CURRENT', 9_000);
    const { arguments: args } = transitionWrite(
      input(rental, {
        transition: { from: 'CURRENT', to: 'OVERDUE', trigger: 'STAGE_ADVANCE', effectiveDate: today },
        options: { businessDate: today, lateFeeInPennies: 2_000 },
      }),
    );

    expect(JSON.parse(args.ledgerEntries)).toEqual([
      expect.objectContaining({ kind: 'LATE_FEE', amount_in_pennies: 2_000, charge_key: `LATE_FEE:${args.delinquencyUuid}` }),
    ]);
    expect(args).toMatchObject({ status: 'OVERDUE', pastDueSince: '2025-03-01', businessDate: today, gate: 'NONE', writtenOffInPennies: 0 });
    expect(args.types).toEqual(['charge-posted', 'delinquency-status-change']);
    const [charge, change] = payloads(args.envelopes);
    expect(charge).toMatchObject({ balanceAfterInPennies: 11_000 });
    expect(change).toMatchObject({ unitRental: { rentalBalance: 11_000 }, delinquencyStatusChange: { delinquencyNewStatus: 'OVERDUE', paymentDate: null } });
  });

  it('refuses a transition from a status the rental is not in', () => {
    const rental = rentalIn('CURRENT', 9_000);
    expect(() => transitionWrite(input(rental, { transition: { from: 'AUCTION', to: 'WRITTEN_OFF', trigger: 'WRITE_OFF', effectiveDate: today } }))).toThrow(
      DelinquencyConflict,
    );
  });
});
