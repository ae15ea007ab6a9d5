import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { addDays, DEFAULT_DELINQUENCY_SCHEDULE, type Auction } from '@storage/domain';
import { OutboxPublisher } from '@storage/messaging';
import { createDataSource, query, sql } from '@storage/persistence';
import { createTestDatabase, type TestDatabase } from '@storage/testing';
import {
  AUCTION_BIDDING_DAYS,
  AuctionService,
  BusinessDayAdvancer,
  DelinquencyConflict,
  InvalidDelinquencyInput,
  openDelinquencyStatus,
  RentalNotFound,
} from '../src';
import { advance, rentalOwing } from './support/delinquent-rental';

/*
 * The operator's auction actions (AuctionService) against the real schema, on rentals the business-day run brought to
 * AUCTION: what each writes and emits, and the refusals an operator gets, each naming what is wrong.
 */

let database: TestDatabase;
let db: DataSource;
let advancer: BusinessDayAdvancer;
let auctions: AuctionService;
const DUE_ON = '2025-03-01';
const OWED = 9_000;
/** What the auction's minimum bid is: the rent and the episode's late fee. */
const OWED_WITH_FEE = OWED + DEFAULT_DELINQUENCY_SCHEDULE.lateFeeInPennies;

beforeAll(async () => {
  database = await createTestDatabase();
  db = await createDataSource({ url: database.url, applicationName: 'delinquency-auction-test' }).initialize();
  advancer = new BusinessDayAdvancer(db, 'delinquency-test');
  auctions = new AuctionService(db, new OutboxPublisher('delinquency-test'));
});
afterAll(async () => {
  await db.destroy();
  await database.drop();
});

const AUCTIONS = sql<{ uuid: string; stage: string; scheduledOn: string; endDate: string; canceledOn: string | null; minimumBid: number }, [string]>(
  `SELECT uuid, stage, scheduled_on::text AS "scheduledOn", end_date::text AS "endDate", canceled_on::text AS "canceledOn",
          minimum_bid_in_pennies AS "minimumBid"
     FROM auctions WHERE rental_record_uuid = $1 ORDER BY created_at`,
);
const EVENTS = sql<{ type: string; envelope: { payload: Record<string, unknown> } }, [string]>('SELECT type, envelope FROM outbox WHERE key = $1 ORDER BY id');
const FACILITY_TODAY = sql<{ today: string }, [string]>(
  `SELECT (now() AT TIME ZONE f.time_zone)::date::text AS today FROM rental_records r JOIN facilities f ON f.uuid = r.facility_uuid WHERE r.uuid = $1`,
);
const RENTAL = sql<{ status: string; endDate: string | null; balance: number; unitStatus: string; gateCodes: number; facilityUuid: string }, [string]>(
  `SELECT r.status, r.end_date::text AS "endDate", r.balance_in_pennies AS balance, u.status AS "unitStatus", r.facility_uuid AS "facilityUuid",
          (SELECT count(*)::int FROM gate_codes g WHERE g.rental_record_uuid = r.uuid) AS "gateCodes"
     FROM rental_records r JOIN units u ON u.uuid = r.unit_uuid WHERE r.uuid = $1`,
);
const MONEY_ENTRIES = sql<{ kind: string; amount: number }, [string]>(
  `SELECT kind, amount_in_pennies AS amount FROM rental_ledger_entries
    WHERE rental_record_uuid = $1 AND kind IN ('AUCTION_PROCEEDS', 'WRITE_OFF') ORDER BY kind::text`,
);

/** A rental the default schedule's run brought to AUCTION: its auction CREATED, the minimum bid what is owed. */
async function rentalInAuction(): Promise<{ uuid: string; today: string }> {
  const uuid = await rentalOwing(db, OWED, DUE_ON);
  await advance(advancer, [uuid], addDays(DUE_ON, DEFAULT_DELINQUENCY_SCHEDULE.auctionDay), DEFAULT_DELINQUENCY_SCHEDULE);
  expect(await openDelinquencyStatus(db, uuid)).toBe('AUCTION');
  return { uuid, today: (await query(db, FACILITY_TODAY, [uuid]))[0].today };
}
const auctionRows = (uuid: string) => query(db, AUCTIONS, [uuid]);
const events = (uuid: string) => query(db, EVENTS, [uuid]);
/** The last event emitted for the rental, which each action must leave as its `auction` event carrying what it answered. */
async function lastAuctionEvent(uuid: string): Promise<Auction> {
  const last = (await events(uuid)).at(-1);
  expect(last?.type).toBe('auction');
  return last?.envelope.payload.auction as Auction;
}

describe('scheduling an auction', () => {
  it('sets the sale date, the bidding window the default days after it, and announces the SCHEDULED auction', async () => {
    const { uuid, today } = await rentalInAuction();
    const [created] = await auctionRows(uuid);
    const scheduledOn = addDays(today, 3);

    const auction = await auctions.schedule({ rentalRecordUuid: uuid }, { scheduledOn });
    expect(auction).toMatchObject({
      auctionUuid: created.uuid,
      auctionStage: 'SCHEDULED',
      auctionScheduledOnDate: scheduledOn,
      auctionStartDate: scheduledOn,
      auctionEndDate: addDays(scheduledOn, AUCTION_BIDDING_DAYS),
      minimumBidAmount: [{ amountInPennies: OWED_WITH_FEE }],
      winningBidAmount: [],
    });
    expect(await auctionRows(uuid)).toEqual([
      { ...created, stage: 'SCHEDULED', scheduledOn, endDate: addDays(scheduledOn, AUCTION_BIDDING_DAYS), canceledOn: null },
    ]);
    expect(await lastAuctionEvent(uuid)).toEqual(auction);
  });

  it('keeps the end date the operator gives, and may set the sale for the facility’s today', async () => {
    const { uuid, today } = await rentalInAuction();
    const auction = await auctions.schedule({ rentalRecordUuid: uuid }, { scheduledOn: today, endDate: addDays(today, 2) });
    expect(auction).toMatchObject({ auctionScheduledOnDate: today, auctionEndDate: addDays(today, 2) });
  });

  it('after a cancel, schedules a new auction, the canceled one kept as it was', async () => {
    const { uuid, today } = await rentalInAuction();
    const canceled = await auctions.cancel({ rentalRecordUuid: uuid });
    const auction = await auctions.schedule({ rentalRecordUuid: uuid }, { scheduledOn: addDays(today, 5) });
    expect(auction.auctionUuid).not.toBe(canceled.auctionUuid);
    expect(auction).toMatchObject({
      auctionStage: 'SCHEDULED',
      auctionScheduledOnDate: addDays(today, 5),
      minimumBidAmount: [{ amountInPennies: OWED_WITH_FEE }],
    });
    expect((await auctionRows(uuid)).map((row) => [row.uuid, row.stage])).toEqual([
      [canceled.auctionUuid, 'CANCELED'],
      [auction.auctionUuid, 'SCHEDULED'],
    ]);
  });

  it('refuses a sale before the facility’s today, or a window ending before it starts, naming the field and changing nothing', async () => {
    const { uuid, today } = await rentalInAuction();
    const before = { auctions: await auctionRows(uuid), events: (await events(uuid)).length };
    const refusals = [
      [{ scheduledOn: addDays(today, -1) }, 'scheduledOn'],
      [{ scheduledOn: addDays(today, 4), endDate: addDays(today, 3) }, 'endDate'],
    ] as const;
    for (const [change, field] of refusals) {
      const refusal = auctions.schedule({ rentalRecordUuid: uuid }, change);
      await expect(refusal).rejects.toThrow(InvalidDelinquencyInput);
      await expect(refusal).rejects.toMatchObject({ field });
    }
    expect({ auctions: await auctionRows(uuid), events: (await events(uuid)).length }).toEqual(before);
  });

  it('refuses a rental that is not in AUCTION, saying which status it is in', async () => {
    const current = await rentalOwing(db, OWED, DUE_ON);
    const scheduledOn = (await query(db, FACILITY_TODAY, [current]))[0].today;
    await expect(auctions.schedule({ rentalRecordUuid: current }, { scheduledOn })).rejects.toThrow(
      new DelinquencyConflict('Only a rental in AUCTION has an auction to schedule (it is CURRENT).'),
    );
    const overdue = await rentalOwing(db, OWED, DUE_ON);
    await advance(advancer, [overdue], addDays(DUE_ON, DEFAULT_DELINQUENCY_SCHEDULE.graceDays + 1), DEFAULT_DELINQUENCY_SCHEDULE);
    await expect(auctions.schedule({ rentalRecordUuid: overdue }, { scheduledOn })).rejects.toThrow(/it is OVERDUE/);
    expect(await auctionRows(overdue)).toEqual([]);
  });

  it('refuses an unknown rental, or one named at another facility, as not found', async () => {
    const { uuid, today } = await rentalInAuction();
    await expect(auctions.schedule({ rentalRecordUuid: randomUUID() }, { scheduledOn: today })).rejects.toThrow(RentalNotFound);
    await expect(auctions.schedule({ rentalRecordUuid: uuid, facilityUuid: randomUUID() }, { scheduledOn: today })).rejects.toThrow(RentalNotFound);
    expect((await auctionRows(uuid)).map((row) => row.stage)).toEqual(['CREATED']);
  });
});

describe('updating an auction', () => {
  it('changes the minimum bid alone, the stage and dates kept, and announces it', async () => {
    const { uuid } = await rentalInAuction();
    const [created] = await auctionRows(uuid);
    const auction = await auctions.update({ rentalRecordUuid: uuid }, { minimumBidInPennies: 2_500 });
    expect(auction).toMatchObject({ auctionStage: 'CREATED', auctionScheduledOnDate: created.scheduledOn, minimumBidAmount: [{ amountInPennies: 2_500 }] });
    expect(await auctionRows(uuid)).toEqual([{ ...created, minimumBid: 2_500 }]);
    expect(await lastAuctionEvent(uuid)).toEqual(auction);
  });

  it('moves the dates of a SCHEDULED auction, which stays SCHEDULED', async () => {
    const { uuid, today } = await rentalInAuction();
    await auctions.schedule({ rentalRecordUuid: uuid }, { scheduledOn: addDays(today, 3) });
    const auction = await auctions.update({ rentalRecordUuid: uuid }, { scheduledOn: addDays(today, 10), endDate: addDays(today, 12) });
    expect(auction).toMatchObject({
      auctionStage: 'SCHEDULED',
      auctionScheduledOnDate: addDays(today, 10),
      auctionStartDate: addDays(today, 10),
      auctionEndDate: addDays(today, 12),
    });
  });

  it('refuses an end date before the sale date, naming the field', async () => {
    const { uuid } = await rentalInAuction();
    const [created] = await auctionRows(uuid);
    await expect(auctions.update({ rentalRecordUuid: uuid }, { endDate: addDays(created.scheduledOn, -1) })).rejects.toMatchObject({
      name: 'InvalidDelinquencyInput',
      field: 'endDate',
    });
    expect(await auctionRows(uuid)).toEqual([created]);
  });
});

describe('canceling an auction', () => {
  it('cancels the pending auction on the facility’s today; the rental stays in AUCTION with nothing left to update or cancel', async () => {
    const { uuid, today } = await rentalInAuction();
    const auction = await auctions.cancel({ rentalRecordUuid: uuid });
    expect(auction).toMatchObject({ auctionStage: 'CANCELED', auctionCanceledOnDate: today });
    expect((await auctionRows(uuid)).map((row) => [row.stage, row.canceledOn])).toEqual([['CANCELED', today]]);
    expect(await lastAuctionEvent(uuid)).toEqual(auction);
    expect(await openDelinquencyStatus(db, uuid)).toBe('AUCTION');

    const nothingPending = new DelinquencyConflict('The rental has no pending auction.');
    await expect(auctions.cancel({ rentalRecordUuid: uuid })).rejects.toThrow(nothingPending);
    await expect(auctions.update({ rentalRecordUuid: uuid }, { minimumBidInPennies: 1 })).rejects.toThrow(nothingPending);
    await expect(auctions.complete({ rentalRecordUuid: uuid }, OWED_WITH_FEE)).rejects.toThrow(nothingPending);
  });
});

describe('completing an auction', () => {
  it('takes what is owed from a winning bid above it, writes off nothing, moves the tenant out; emits auction, the status change, moved-out', async () => {
    const { uuid, today } = await rentalInAuction();
    const before = (await events(uuid)).length;
    const auction = await auctions.complete({ rentalRecordUuid: uuid }, OWED_WITH_FEE + 5_000);
    expect(auction).toMatchObject({ auctionStage: 'COMPLETED', auctionCompletedOnDate: today, winningBidAmount: [{ amountInPennies: OWED_WITH_FEE + 5_000 }] });
    expect(await query(db, MONEY_ENTRIES, [uuid])).toEqual([{ kind: 'AUCTION_PROCEEDS', amount: -OWED_WITH_FEE }]);
    expect(await query(db, RENTAL, [uuid])).toEqual([
      expect.objectContaining({ status: 'MOVED_OUT', endDate: today, balance: 0, unitStatus: 'vacant', gateCodes: 0 }),
    ]);
    expect(await openDelinquencyStatus(db, uuid)).toBeNull();
    const added = (await events(uuid)).slice(before);
    expect(added.map((event) => event.type)).toEqual(['auction', 'delinquency-status-change', 'moved-out']);
    expect(added[0].envelope.payload.auction).toEqual(auction);
    expect(added[1].envelope.payload.delinquencyStatusChange).toMatchObject({ delinquencyPreviousStatus: 'AUCTION', delinquencyNewStatus: 'WRITTEN_OFF' });
  });

  it('writes off what a winning bid under the balance (at or above a lowered minimum) leaves unpaid', async () => {
    const { uuid } = await rentalInAuction();
    await auctions.update({ rentalRecordUuid: uuid }, { minimumBidInPennies: 3_000 });
    await auctions.complete({ rentalRecordUuid: uuid }, 3_000);
    expect(await query(db, MONEY_ENTRIES, [uuid])).toEqual([
      { kind: 'AUCTION_PROCEEDS', amount: -3_000 },
      { kind: 'WRITE_OFF', amount: -(OWED_WITH_FEE - 3_000) },
    ]);
    expect((await query(db, RENTAL, [uuid]))[0].balance).toBe(0);
  });

  it('refuses a winning bid under the minimum, naming the field and changing nothing', async () => {
    const { uuid } = await rentalInAuction();
    const before = { auctions: await auctionRows(uuid), events: (await events(uuid)).length, rental: await query(db, RENTAL, [uuid]) };
    await expect(auctions.complete({ rentalRecordUuid: uuid }, OWED_WITH_FEE - 1)).rejects.toMatchObject({
      name: 'InvalidDelinquencyInput',
      field: 'winningBidInPennies',
      message: `winningBidInPennies: must be at least the minimum bid of ${OWED_WITH_FEE}`,
    });
    expect({ auctions: await auctionRows(uuid), events: (await events(uuid)).length, rental: await query(db, RENTAL, [uuid]) }).toEqual(before);
  });

  it('leaves nothing to do once the tenant has moved out', async () => {
    const { uuid, today } = await rentalInAuction();
    await auctions.complete({ rentalRecordUuid: uuid }, OWED_WITH_FEE);
    const movedOut = new DelinquencyConflict('The rental has moved out.');
    await expect(auctions.schedule({ rentalRecordUuid: uuid }, { scheduledOn: today })).rejects.toThrow(movedOut);
    await expect(auctions.update({ rentalRecordUuid: uuid }, { minimumBidInPennies: 1 })).rejects.toThrow(movedOut);
    await expect(auctions.cancel({ rentalRecordUuid: uuid })).rejects.toThrow(movedOut);
    await expect(auctions.complete({ rentalRecordUuid: uuid }, OWED_WITH_FEE)).rejects.toThrow(movedOut);
  });
});
