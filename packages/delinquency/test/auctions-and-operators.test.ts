import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import {
  addDays,
  applyDelinquencyTrigger,
  DELINQUENCY_TRIGGERS,
  IllegalDelinquencyTransition,
  RENTAL_DELINQUENCY_STATUSES,
  type PausableStatus,
} from '@storage/domain';
import { AUCTION_BIDDING_DAYS, AUCTION_NOTICE_DAYS, DelinquencyConflict } from '../src';
import { auctionEventObject, newAuction } from '../src/auctions';
import { operatorTransition } from '../src/delinquency.service';
import { lockedRental } from './support/rental';

const dateArb = fc.integer({ min: 0, max: 3_000 }).map((offset) => addDays('2024-01-01', offset));

describe('newAuction (reaching the auction day, or scheduling after a cancel)', () => {
  it('is held the notice days after it is created, bids open that day for the bidding window, minimum bid what is owed (never negative)', () => {
    fc.assert(
      fc.property(dateArb, fc.integer({ min: -10_000, max: 1_000_000 }), (createdOn, balanceInPennies) => {
        const ids = { rentalRecordUuid: randomUUID(), delinquencyUuid: randomUUID(), facilityUuid: randomUUID() };
        const auction = newAuction({ ...ids, createdOn, balanceInPennies });
        expect(auction).toEqual({
          ...ids,
          uuid: expect.any(String),
          stage: 'CREATED',
          scheduledOn: addDays(createdOn, AUCTION_NOTICE_DAYS),
          startDate: addDays(createdOn, AUCTION_NOTICE_DAYS),
          endDate: addDays(createdOn, AUCTION_NOTICE_DAYS + AUCTION_BIDDING_DAYS),
          canceledOn: null,
          completedOn: null,
          minimumBidInPennies: Math.max(balanceInPennies, 0),
          winningBidInPennies: null,
        });
        expect(newAuction({ ...ids, createdOn, balanceInPennies }).uuid).not.toBe(auction.uuid);
      }),
    );
  });

  it('uses the documented defaults: 14 days of notice, 7 of bidding', () => {
    expect([AUCTION_NOTICE_DAYS, AUCTION_BIDDING_DAYS]).toEqual([14, 7]);
  });
});

describe('auctionEventObject (the spec 6.3 auction object)', () => {
  it('carries the auction’s dates and stage, the minimum bid, and the winning bid only once there is one', () => {
    fc.assert(
      fc.property(
        dateArb,
        fc.constantFrom('CREATED', 'SCHEDULED', 'CANCELED', 'COMPLETED' as const),
        fc.option(fc.nat(1_000_000)),
        fc.option(dateArb),
        (createdOn, stage, winningBidInPennies, closedOn) => {
          const auction = {
            ...newAuction({ rentalRecordUuid: randomUUID(), delinquencyUuid: randomUUID(), facilityUuid: randomUUID(), createdOn, balanceInPennies: 4_200 }),
            stage,
            winningBidInPennies,
            canceledOn: stage === 'CANCELED' ? closedOn : null,
            completedOn: stage === 'COMPLETED' ? closedOn : null,
          };
          expect(auctionEventObject(auction)).toEqual({
            auctionUuid: auction.uuid,
            auctionCanceledOnDate: auction.canceledOn,
            auctionScheduledOnDate: auction.scheduledOn,
            auctionCompletedOnDate: auction.completedOn,
            auctionStartDate: auction.startDate,
            auctionEndDate: auction.endDate,
            auctionStage: stage,
            minimumBidAmount: [{ amountInPennies: 4_200 }],
            winningBidAmount: winningBidInPennies === null ? [] : [{ amountInPennies: winningBidInPennies }],
          });
        },
      ),
    );
  });
});

describe('operatorTransition (pause, resume, write-off asked for today at the facility)', () => {
  const PAUSABLE: PausableStatus[] = ['OVERDUE', 'OVERLOCK', 'LIEN', 'AUCTION'];

  it('is the state machine’s step from the rental’s status, effective the facility’s today; refused pairs throw', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...RENTAL_DELINQUENCY_STATUSES),
        fc.constantFrom(...PAUSABLE),
        fc.constantFrom(...DELINQUENCY_TRIGGERS),
        dateArb,
        (status, pausedFrom, trigger, facilityToday) => {
          const rental = lockedRental(status, { pausedFrom, facilityToday });
          let expected: ReturnType<typeof applyDelinquencyTrigger> | IllegalDelinquencyTransition;
          try {
            expected = applyDelinquencyTrigger({ status, pausedFrom: status === 'PAUSED' ? pausedFrom : null }, trigger);
          } catch (error) {
            expected = error as IllegalDelinquencyTransition;
          }
          if (expected instanceof IllegalDelinquencyTransition) expect(() => operatorTransition(rental, trigger)).toThrow(IllegalDelinquencyTransition);
          else expect(operatorTransition(rental, trigger)).toEqual({ from: status, to: expected.status, trigger, effectiveDate: facilityToday });
        },
      ),
    );
  });

  it('refuses any change once the tenant has moved out', () => {
    for (const trigger of ['PAUSE', 'RESUME', 'WRITE_OFF'] as const) {
      expect(() => operatorTransition(lockedRental('OVERDUE', { active: false }), trigger)).toThrow(DelinquencyConflict);
    }
  });

  it('pauses to PAUSED and resumes to the status held before the pause', () => {
    for (const status of PAUSABLE) {
      expect(operatorTransition(lockedRental(status), 'PAUSE')).toMatchObject({ from: status, to: 'PAUSED' });
      expect(operatorTransition(lockedRental('PAUSED', { pausedFrom: status }), 'RESUME')).toMatchObject({ from: 'PAUSED', to: status });
    }
  });
});
