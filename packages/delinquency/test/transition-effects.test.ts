import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import {
  addDays,
  daysBetween,
  DELINQUENCY_TRANSITIONS,
  DELINQUENCY_TRIGGERS,
  IllegalDelinquencyTransition,
  parseEnvelope,
  RENTAL_DELINQUENCY_STATUSES,
  topicFor,
  type DelinquencyTrigger,
  type EventEnvelope,
  type PausableStatus,
  type RentalDelinquencyStatus,
} from '@storage/domain';
import { AUCTION_BIDDING_DAYS, AUCTION_NOTICE_DAYS, DelinquencyConflict } from '../src';
import type { AuctionRow } from '../src/auctions';
import type { LockedRental } from '../src/locked-rental';
import { transitionWrite, type TransitionInput, type TransitionWrite } from '../src/transition-write';
import { eventContextOf, lockedRental } from './support/rental';

/*
 * The effects of every transition the state machine allows, as the package README ("How a change is applied")
 * states them, checked over generated rentals: what the delinquency row becomes, the gate code, the late fee of a
 * new episode, the auction created on the auction day or canceled when the debt ends, the write-off, and the events
 * (one status change, in the documented order, at strictly increasing times, showing the balance the change leaves).
 */

const PAUSABLE: PausableStatus[] = ['OVERDUE', 'OVERLOCK', 'LIEN', 'AUCTION'];

/** Every (status, trigger) pair the domain's transition table allows. */
const ALLOWED = RENTAL_DELINQUENCY_STATUSES.flatMap((from) =>
  DELINQUENCY_TRIGGERS.filter((trigger) => trigger in DELINQUENCY_TRANSITIONS[from]).map((trigger) => ({ from, trigger })),
);
/** Every pair it refuses. */
const REFUSED = RENTAL_DELINQUENCY_STATUSES.flatMap((from) =>
  DELINQUENCY_TRIGGERS.filter((trigger) => !(trigger in DELINQUENCY_TRANSITIONS[from])).map((trigger) => ({ from, trigger })),
);

/** Where a status goes on a trigger, read from the table (RESUME: back to the status held before the pause). */
function target(from: RentalDelinquencyStatus, trigger: DelinquencyTrigger, pausedFrom: PausableStatus): RentalDelinquencyStatus {
  const to = (DELINQUENCY_TRANSITIONS[from] as Partial<Record<DelinquencyTrigger, string>>)[trigger];
  if (to === undefined) throw new Error(`${from} refuses ${trigger}`);
  return to === 'STATUS_BEFORE_PAUSE' ? pausedFrom : (to as RentalDelinquencyStatus);
}

const day = (offset: number) => addDays('2025-03-01', offset);

const caseArb = fc.record({
  pair: fc.constantFrom(...ALLOWED),
  pausedFrom: fc.constantFrom(...PAUSABLE),
  balanceInPennies: fc.integer({ min: -5_000, max: 500_000 }),
  otherRentalsInPennies: fc.integer({ min: 0, max: 50_000 }),
  lateFeeInPennies: fc.integer({ min: 0, max: 5_000 }),
  oldestOpenDueOn: fc.option(fc.integer({ min: -30, max: 30 }).map(day)),
  pastDueSince: fc.option(fc.integer({ min: -30, max: 0 }).map(day)),
  statusChangedOn: fc.integer({ min: 0, max: 60 }).map(day),
  effectiveAfter: fc.integer({ min: 0, max: 60 }),
  lastEventAt: fc.option(fc.integer({ min: 0, max: 4_000_000_000_000 }).map((ms) => new Date(ms))),
  paymentDate: fc.option(fc.integer({ min: 0, max: 120 }).map(day)),
  businessDate: fc.option(fc.integer({ min: 0, max: 120 }).map(day)),
  pendingAuction: fc.boolean(),
  stateVersion: fc.option(fc.string({ minLength: 1, maxLength: 12 })),
});
type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

interface Decided {
  c: Case;
  rental: LockedRental;
  input: TransitionInput;
  to: RentalDelinquencyStatus;
  effectiveDate: string;
  auction: AuctionRow | null;
  write: TransitionWrite;
  envelopes: EventEnvelope[];
}

function pendingAuctionOf(rental: LockedRental): AuctionRow {
  return {
    uuid: randomUUID(),
    rentalRecordUuid: rental.rentalRecordUuid,
    delinquencyUuid: rental.delinquency?.delinquencyUuid ?? randomUUID(),
    facilityUuid: rental.facilityUuid,
    stage: 'SCHEDULED',
    scheduledOn: '2025-09-01',
    startDate: '2025-09-01',
    endDate: '2025-09-08',
    canceledOn: null,
    completedOn: null,
    minimumBidInPennies: 7_000,
    winningBidInPennies: null,
  };
}

function decide(c: Case): Decided {
  const { from, trigger } = c.pair;
  const rental = lockedRental(from, {
    pausedFrom: c.pausedFrom,
    balanceInPennies: c.balanceInPennies,
    oldestOpenDueOn: c.oldestOpenDueOn,
    pastDueSince: c.pastDueSince,
    statusChangedOn: c.statusChangedOn,
    lastEventAt: c.lastEventAt,
  });
  const to = target(from, trigger, c.pausedFrom);
  const effectiveDate = addDays(c.statusChangedOn, c.effectiveAfter);
  const auction = c.pendingAuction ? pendingAuctionOf(rental) : null;
  const input: TransitionInput = {
    rental,
    transition: { from, to, trigger, effectiveDate },
    pendingAuction: auction,
    context: eventContextOf(rental, c.otherRentalsInPennies),
    stateVersion: c.stateVersion,
    options: { lateFeeInPennies: c.lateFeeInPennies, paymentDate: c.paymentDate, businessDate: c.businessDate },
  };
  const write = transitionWrite(input);
  // Each envelope is checked against the event schemas as a consumer would.
  const envelopes = (JSON.parse(write.arguments.envelopes) as unknown[]).map((envelope) => parseEnvelope(envelope));
  return { c, rental, input, to, effectiveDate, auction, write, envelopes };
}

const property = (check: (decided: Decided) => void) =>
  fc.assert(
    fc.property(caseArb, (c) => check(decide(c))),
    { numRuns: 300 },
  );

/** A new episode: entering OVERDUE from not delinquent or PAID (not resuming into it). */
const startsEpisode = ({ c, to }: Decided) => to === 'OVERDUE' && (c.pair.from === 'CURRENT' || c.pair.from === 'PAID');
const ledgerEntries = ({ write }: Decided) => JSON.parse(write.arguments.ledgerEntries) as { kind: string; amount_in_pennies: number; charge_key?: string }[];
const auctionsWritten = ({ write }: Decided) => JSON.parse(write.arguments.auctions) as Record<string, unknown>[];
const statusChanges = ({ envelopes }: Decided) =>
  envelopes.filter((envelope): envelope is EventEnvelope<'delinquency-status-change'> => envelope.type === 'delinquency-status-change');

describe('transitionWrite over every transition the state machine allows', () => {
  it('moves the delinquency to the table’s target on the effective date, remembering the paused status only while PAUSED', () => {
    property(({ write, to, c, effectiveDate, rental }) => {
      const pausedFrom = to === 'PAUSED' ? c.pair.from : null;
      expect(write.view).toEqual({
        rentalRecordUuid: rental.rentalRecordUuid,
        delinquencyUuid: write.arguments.delinquencyUuid,
        status: to,
        pausedFrom,
        statusChangedOn: effectiveDate,
      });
      expect(write.arguments).toMatchObject({
        rentalRecordUuid: rental.rentalRecordUuid,
        facilityUuid: rental.facilityUuid,
        status: to,
        pausedFrom,
        day: effectiveDate,
        businessDate: c.businessDate,
        stateVersion: c.stateVersion,
      });
    });
  });

  it('suspends the gate code from OVERLOCK to AUCTION, restores it on PAID and WRITTEN_OFF, leaves it otherwise', () => {
    property(({ write, to }) => {
      const expected = ['OVERLOCK', 'LIEN', 'AUCTION'].includes(to) ? 'SUSPEND' : to === 'PAID' || to === 'WRITTEN_OFF' ? 'RESTORE' : 'NONE';
      expect(write.arguments.gate).toBe(expected);
    });
  });

  it('emits exactly one delinquency-status-change: previous (null when not delinquent before), new, the effective date, the payment date given', () => {
    property((decided) => {
      const { c, to, effectiveDate, write } = decided;
      const changes = statusChanges(decided);
      expect(changes).toHaveLength(1);
      expect(changes[0].payload.delinquencyStatusChange).toEqual({
        delinquencyUuid: write.arguments.delinquencyUuid,
        delinquencyPreviousStatus: c.pair.from === 'CURRENT' ? null : c.pair.from,
        delinquencyNewStatus: to,
        delinquencyStatusChangeDate: effectiveDate,
        paymentDate: c.paymentDate,
      });
    });
  });

  it('starts a new episode (new delinquency uuid, days counted from the oldest open charge) only on entering OVERDUE from CURRENT or PAID', () => {
    property((decided) => {
      const { rental, write, c } = decided;
      const previous = rental.delinquency?.delinquencyUuid;
      if (startsEpisode(decided)) {
        expect(write.arguments.delinquencyUuid).not.toBe(previous);
        expect(write.arguments.pastDueSince).toBe(c.oldestOpenDueOn ?? rental.facilityToday);
      } else if (previous !== undefined) {
        expect(write.arguments.delinquencyUuid).toBe(previous);
      }
    });
  });

  it('charges the schedule’s late fee once per episode, announced by charge-posted before the status change', () => {
    property((decided) => {
      const { c, write, envelopes, rental, effectiveDate } = decided;
      const fees = ledgerEntries(decided).filter((entry) => entry.kind === 'LATE_FEE');
      const charges = envelopes.filter((envelope): envelope is EventEnvelope<'charge-posted'> => envelope.type === 'charge-posted');
      if (startsEpisode(decided) && c.lateFeeInPennies > 0) {
        expect(fees).toEqual([expect.objectContaining({ amount_in_pennies: c.lateFeeInPennies, charge_key: `LATE_FEE:${write.arguments.delinquencyUuid}` })]);
        expect(charges).toHaveLength(1);
        expect(charges[0].payload).toMatchObject({
          rentalRecordUuid: rental.rentalRecordUuid,
          amountInPennies: c.lateFeeInPennies,
          balanceAfterInPennies: c.balanceInPennies + c.lateFeeInPennies,
          dueDate: effectiveDate,
        });
        expect(envelopes.indexOf(charges[0])).toBeLessThan(envelopes.indexOf(statusChanges(decided)[0]));
      } else {
        expect(fees).toEqual([]);
        expect(charges).toEqual([]);
      }
    });
  });

  it('counts days past due from the episode’s due date: PAID clears it, RESUME moves it on by the days paused, the rest keep it', () => {
    property((decided) => {
      const { c, write, rental, effectiveDate } = decided;
      if (startsEpisode(decided)) return; // the previous property
      if (decided.to === 'PAID') expect(write.arguments.pastDueSince).toBeNull();
      else if (c.pair.trigger === 'RESUME') {
        const pausedDays = daysBetween(c.statusChangedOn, effectiveDate);
        expect(pausedDays).toBeGreaterThanOrEqual(0);
        expect(write.arguments.pastDueSince).toBe(addDays(c.pastDueSince ?? c.oldestOpenDueOn ?? rental.facilityToday, pausedDays));
      } else expect(write.arguments.pastDueSince).toBe(c.pastDueSince);
    });
  });

  it('creates the auction only on reaching the auction day: held after the notice days, bidding window, minimum bid what is owed', () => {
    property((decided) => {
      const { c, write, rental, effectiveDate, envelopes } = decided;
      const created = auctionsWritten(decided).filter((auction) => auction.stage === 'CREATED');
      if (decided.to === 'AUCTION' && c.pair.trigger === 'STAGE_ADVANCE') {
        const scheduledOn = addDays(effectiveDate, AUCTION_NOTICE_DAYS);
        expect(created).toEqual([
          expect.objectContaining({
            rental_record_uuid: rental.rentalRecordUuid,
            delinquency_uuid: write.arguments.delinquencyUuid,
            facility_uuid: rental.facilityUuid,
            scheduled_on: scheduledOn,
            start_date: scheduledOn,
            end_date: addDays(scheduledOn, AUCTION_BIDDING_DAYS),
            canceled_on: null,
            completed_on: null,
            minimum_bid_in_pennies: Math.max(c.balanceInPennies, 0),
            winning_bid_in_pennies: null,
          }),
        ]);
        // Announced right after the status change.
        expect(envelopes.map((envelope) => envelope.type).slice(-2)).toEqual(['delinquency-status-change', 'auction']);
        const auction = (envelopes.at(-1) as EventEnvelope<'auction'>).payload.auction;
        expect(auction).toMatchObject({ auctionUuid: created[0].uuid, auctionStage: 'CREATED', auctionScheduledOnDate: scheduledOn });
      } else expect(created).toEqual([]);
    });
  });

  it('cancels a pending auction, announced before the status change, exactly when the debt ends (PAID, WRITTEN_OFF)', () => {
    property((decided) => {
      const { auction, write, envelopes, effectiveDate } = decided;
      const canceled = auctionsWritten(decided).filter((row) => row.stage === 'CANCELED');
      if (auction !== null && (decided.to === 'PAID' || decided.to === 'WRITTEN_OFF')) {
        expect(canceled).toEqual([expect.objectContaining({ uuid: auction.uuid, canceled_on: effectiveDate, scheduled_on: auction.scheduledOn })]);
        expect(envelopes[0].type).toBe('auction');
        expect((envelopes[0] as EventEnvelope<'auction'>).payload.auction).toMatchObject({ auctionUuid: auction.uuid, auctionStage: 'CANCELED' });
        expect(envelopes[1].type).toBe('delinquency-status-change');
      } else {
        expect(canceled).toEqual([]);
        expect(write.arguments.auctions).not.toContain(auction?.uuid ?? 'no auction');
      }
    });
  });

  it('writes off what is owed on WRITE_OFF (nothing when nothing is owed), and nothing on any other trigger', () => {
    property((decided) => {
      const { c, write } = decided;
      const writeOffs = ledgerEntries(decided).filter((entry) => entry.kind === 'WRITE_OFF');
      const owed = c.pair.trigger === 'WRITE_OFF' ? Math.max(c.balanceInPennies, 0) : 0;
      expect(write.arguments.writtenOffInPennies).toBe(owed);
      expect(writeOffs).toEqual(owed > 0 ? [expect.objectContaining({ amount_in_pennies: -owed })] : []);
    });
  });

  it('shows in every payload the rental’s and the tenant’s balance as the change leaves them (late fee added, write-off taken)', () => {
    property((decided) => {
      const { c, envelopes } = decided;
      const posted = ledgerEntries(decided).reduce((sum, entry) => sum + entry.amount_in_pennies, 0);
      for (const envelope of envelopes) {
        if (envelope.type === 'charge-posted') continue;
        expect(envelope.payload).toMatchObject({
          unitRental: { rentalBalance: c.balanceInPennies + posted },
          tenantBalanceInPennies: c.balanceInPennies + c.otherRentalsInPennies + posted,
        });
      }
    });
  });

  it('times the events strictly after the rental’s previous event, in increasing order, and records the last; each keyed by the rental on its topic', () => {
    property(({ envelopes, write, rental }) => {
      const times = envelopes.map((envelope) => Date.parse(envelope.occurredAt));
      const previous = rental.delinquency?.lastEventAt;
      if (previous != null) expect(times[0]).toBeGreaterThan(previous.getTime());
      for (const [index, time] of times.entries()) if (index > 0) expect(time).toBeGreaterThan(times[index - 1]);
      expect(write.arguments.lastEventAt.getTime()).toBe(times.at(-1));
      expect(write.arguments.types).toEqual(envelopes.map((envelope) => envelope.type));
      expect(write.arguments.topics).toEqual(envelopes.map((envelope) => topicFor(envelope.type)));
      expect(write.arguments.eventIds).toEqual(envelopes.map((envelope) => envelope.eventId));
      expect(new Set(write.arguments.eventIds).size).toBe(envelopes.length);
      expect(write.arguments.keys).toEqual(envelopes.map(() => rental.rentalRecordUuid));
    });
  });

  it('puts the caller’s leading events before everything and its trailing events after everything', () => {
    const rental = lockedRental('AUCTION', { balanceInPennies: 5_000 });
    const { arguments: args } = transitionWrite({
      rental,
      transition: { from: 'AUCTION', to: 'WRITTEN_OFF', trigger: 'WRITE_OFF', effectiveDate: '2025-06-01' },
      pendingAuction: pendingAuctionOf(rental),
      context: eventContextOf(rental),
      stateVersion: null,
      options: { trailingEvents: [{ type: 'moved-out', added: {} }], leadingEvents: [{ type: 'auction', added: { auction: { ...completedAuction } } }] },
    });
    expect(args.types).toEqual(['auction', 'auction', 'delinquency-status-change', 'moved-out']);
    const [leading, canceled] = (JSON.parse(args.envelopes) as EventEnvelope<'auction'>[]).slice(0, 2).map((envelope) => envelope.payload.auction.auctionStage);
    expect([leading, canceled]).toEqual(['COMPLETED', 'CANCELED']);
  });
});

const completedAuction = {
  auctionUuid: randomUUID(),
  auctionCanceledOnDate: null,
  auctionScheduledOnDate: '2025-05-20',
  auctionCompletedOnDate: '2025-06-01',
  auctionStartDate: '2025-05-20',
  auctionEndDate: '2025-05-27',
  auctionStage: 'COMPLETED' as const,
  minimumBidAmount: [{ amountInPennies: 5_000 }],
  winningBidAmount: [{ amountInPennies: 6_000 }],
};

describe('transitionWrite refuses', () => {
  it('every pair the transition table refuses, whatever the rental', () => {
    for (const { from, trigger } of REFUSED) {
      const rental = lockedRental(from);
      expect(() =>
        transitionWrite({
          rental,
          transition: { from, to: 'WRITTEN_OFF', trigger, effectiveDate: '2025-06-01' },
          pendingAuction: null,
          context: eventContextOf(rental),
          stateVersion: null,
        }),
      ).toThrow(IllegalDelinquencyTransition);
    }
  });

  it('a transition from a status the rental is not in (a conflict, nothing decided)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...ALLOWED), fc.constantFrom(...RENTAL_DELINQUENCY_STATUSES), ({ from, trigger }, actual) => {
        fc.pre(actual !== from);
        const rental = lockedRental(actual);
        expect(() =>
          transitionWrite({
            rental,
            transition: { from, to: target(from, trigger, 'OVERDUE'), trigger, effectiveDate: '2025-06-01' },
            pendingAuction: null,
            context: eventContextOf(rental),
            stateVersion: null,
          }),
        ).toThrow(DelinquencyConflict);
      }),
    );
  });

  it('a transition whose target is not where the table leads', () => {
    for (const { from, trigger } of ALLOWED) {
      const rental = lockedRental(from, { pausedFrom: 'LIEN' });
      const to = RENTAL_DELINQUENCY_STATUSES.find((status) => status !== target(from, trigger, 'LIEN'))!;
      expect(() =>
        transitionWrite({
          rental,
          transition: { from, to, trigger, effectiveDate: '2025-06-01' },
          pendingAuction: null,
          context: eventContextOf(rental),
          stateVersion: null,
        }),
      ).toThrow(/leads/);
    }
  });

  it('RESUME when the status held before the pause is unknown', () => {
    const rental = lockedRental('PAUSED');
    rental.delinquency!.pausedFrom = null;
    expect(() =>
      transitionWrite({
        rental,
        transition: { from: 'PAUSED', to: 'OVERDUE', trigger: 'RESUME', effectiveDate: '2025-06-01' },
        pendingAuction: null,
        context: eventContextOf(rental),
        stateVersion: null,
      }),
    ).toThrow(IllegalDelinquencyTransition);
  });
});
