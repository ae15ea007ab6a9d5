import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { DataSource } from 'typeorm';
import { addDays, DEFAULT_DELINQUENCY_SCHEDULE, type DelinquencySchedule } from '@storage/domain';
import { OutboxPublisher } from '@storage/messaging';
import { createDataSource, query, sql } from '@storage/persistence';
import { postEntries } from '@storage/rental-ledger';
import { createTestDatabase, insertRentalParents, type TestDatabase } from '@storage/testing';
import { BusinessDayAdvancer, DelinquencyService, openDelinquencyStatus, saveFacilitySchedule, facilitySchedule } from '../src';
import { advance, rentalOwing } from './support/delinquent-rental';

/*
 * The business-day run against the real schema: a rental past due N days is, after a run of that date, in the stage
 * its facility's schedule names for N (README "How a change is applied"), with the stage's effects in the database;
 * a second run of the date, or a run of an older one, changes nothing; a cleared balance ends it; a pause halts it.
 */

let database: TestDatabase;
let db: DataSource;
let advancer: BusinessDayAdvancer;
const DUE_ON = '2025-03-01';

beforeAll(async () => {
  database = await createTestDatabase();
  db = await createDataSource({ url: database.url, applicationName: 'delinquency-run-test' }).initialize();
  advancer = new BusinessDayAdvancer(db, 'delinquency-test');
});
afterAll(async () => {
  await db.destroy();
  await database.drop();
});

const DELINQUENCY = sql<{ status: string; pastDueSince: string | null; delinquencyUuid: string }, [string]>(
  `SELECT status, past_due_since::text AS "pastDueSince", delinquency_uuid AS "delinquencyUuid" FROM delinquencies WHERE rental_record_uuid = $1`,
);
const SUSPENDED = sql<{ n: number }, [string]>('SELECT count(*)::int AS n FROM gate_code_suspensions WHERE rental_record_uuid = $1');
const AUCTIONS = sql<{ stage: string; scheduledOn: string; minimumBid: number }, [string]>(
  `SELECT stage, scheduled_on::text AS "scheduledOn", minimum_bid_in_pennies AS "minimumBid" FROM auctions WHERE rental_record_uuid = $1 ORDER BY created_at`,
);
const LATE_FEES = sql<{ amount: number }, [string]>(
  `SELECT amount_in_pennies AS amount FROM rental_ledger_entries WHERE rental_record_uuid = $1 AND kind = 'LATE_FEE'`,
);
const EVENTS = sql<{ type: string; envelope: { payload: Record<string, unknown> } }, [string]>('SELECT type, envelope FROM outbox WHERE key = $1 ORDER BY id');
const BALANCE = sql<{ balance: number }, [string]>('SELECT balance_in_pennies AS balance FROM rental_records WHERE uuid = $1');

const status = async (uuid: string) => (await query(db, DELINQUENCY, [uuid]))[0]?.status ?? 'CURRENT';
const suspended = async (uuid: string) => (await query(db, SUSPENDED, [uuid]))[0].n === 1;
const events = (uuid: string) => query(db, EVENTS, [uuid]);

const scheduleArb: fc.Arbitrary<DelinquencySchedule> = fc
  .tuple(fc.integer({ min: 0, max: 10 }), fc.nat(10), fc.nat(20), fc.nat(30), fc.nat(3_000))
  .map(([graceDays, a, b, c, lateFeeInPennies]) => ({
    graceDays,
    overlockDay: graceDays + 1 + a,
    lienDay: graceDays + 1 + a + b,
    auctionDay: graceDays + 1 + a + b + c,
    lateFeeInPennies,
  }));

/** The stages in order with the day past due each is entered on, as the schedule documents them. */
const stageDays = (s: DelinquencySchedule) =>
  [
    ['OVERDUE', s.graceDays + 1],
    ['OVERLOCK', s.overlockDay],
    ['LIEN', s.lienDay],
    ['AUCTION', s.auctionDay],
  ] as const;

describe('a business-day run', () => {
  it('leaves a rental N days past due in the stage its schedule names for N, with each stage entered once, in order, on its day', async () => {
    await fc.assert(
      fc.asyncProperty(scheduleArb, fc.nat(80), fc.integer({ min: 1_000, max: 50_000 }), async (schedule, daysPastDue, owed) => {
        const uuid = await rentalOwing(db, owed, DUE_ON);
        const businessDate = addDays(DUE_ON, daysPastDue);
        const reached = stageDays(schedule).filter(([, day]) => day <= daysPastDue);
        const expected = reached.at(-1)?.[0] ?? 'CURRENT';

        const result = await advance(advancer, [uuid], businessDate, schedule);
        expect(result).toEqual({ transitions: reached.length, failures: [] });
        expect(await status(uuid)).toBe(expected);
        const changes = (await events(uuid)).filter((event) => event.type === 'delinquency-status-change');
        expect(changes.map(({ envelope }) => envelope.payload.delinquencyStatusChange)).toEqual(
          reached.map(([stage, day], index): unknown =>
            expect.objectContaining({
              delinquencyPreviousStatus: index === 0 ? null : reached[index - 1][0],
              delinquencyNewStatus: stage,
              delinquencyStatusChangeDate: addDays(DUE_ON, day),
            }),
          ),
        );
        // The stage's effects: the episode's late fee, the gate code from OVERLOCK on, the auction on the auction day.
        const fee = reached.length > 0 && schedule.lateFeeInPennies > 0 ? [{ amount: schedule.lateFeeInPennies }] : [];
        expect(await query(db, LATE_FEES, [uuid])).toEqual(fee);
        expect(await suspended(uuid)).toBe(reached.length >= 2);
        expect(await query(db, AUCTIONS, [uuid])).toEqual(
          expected === 'AUCTION'
            ? [{ stage: 'CREATED', scheduledOn: addDays(DUE_ON, schedule.auctionDay + 14), minimumBid: owed + (fee[0]?.amount ?? 0) }]
            : [],
        );
        if (reached.length > 0) expect((await query(db, DELINQUENCY, [uuid]))[0].pastDueSince).toBe(DUE_ON);

        // Running the date again, or an older one, changes nothing.
        const emitted = (await events(uuid)).length;
        expect(await advance(advancer, [uuid], businessDate, schedule)).toEqual({ transitions: 0, failures: [] });
        if (daysPastDue > 0) expect(await advance(advancer, [uuid], addDays(businessDate, -1), schedule)).toEqual({ transitions: 0, failures: [] });
        expect((await events(uuid)).length).toBe(emitted);
        expect(await status(uuid)).toBe(expected);
      }),
      { numRuns: 15 },
    );
  });

  it('advances a batch of rentals each on its own, and reports a bad id alone', async () => {
    const [a, b] = [await rentalOwing(db, 5_000, DUE_ON), await rentalOwing(db, 7_000, DUE_ON)];
    const result = await advance(advancer, [a, 'not-a-uuid', b], addDays(DUE_ON, 11), DEFAULT_DELINQUENCY_SCHEDULE);
    expect(result.transitions).toBe(4);
    expect(result.failures.map((failure) => failure.rentalRecordUuid)).toEqual(['not-a-uuid']);
    for (const uuid of [a, b]) {
      expect(await status(uuid)).toBe('OVERLOCK');
      expect((await events(uuid)).map((event) => event.type)).toEqual(['charge-posted', 'delinquency-status-change', 'delinquency-status-change']);
    }
  });

  it('moves a delinquent rental whose balance was cleared to PAID: gate code restored, pending auction canceled first', async () => {
    const uuid = await rentalOwing(db, 9_000, DUE_ON);
    const schedule = DEFAULT_DELINQUENCY_SCHEDULE;
    await advance(advancer, [uuid], addDays(DUE_ON, schedule.auctionDay), schedule);
    expect(await status(uuid)).toBe('AUCTION');
    const [{ balance }] = await query(db, BALANCE, [uuid]);
    const paidOn = addDays(DUE_ON, schedule.auctionDay + 1);
    await db.transaction((m) =>
      postEntries(m, uuid, [{ kind: 'PAYMENT', description: 'Payment', amountInPennies: -balance, postedOn: paidOn, dueOn: null, paymentUuid: randomUUID() }]),
    );
    const before = (await events(uuid)).length;

    expect(await advance(advancer, [uuid], paidOn, schedule)).toEqual({ transitions: 1, failures: [] });
    expect(await status(uuid)).toBe('PAID');
    expect((await query(db, DELINQUENCY, [uuid]))[0].pastDueSince).toBeNull();
    expect(await suspended(uuid)).toBe(false);
    expect((await query(db, AUCTIONS, [uuid])).map((auction) => auction.stage)).toEqual(['CANCELED']);
    const added = (await events(uuid)).slice(before);
    expect(added.map((event) => event.type)).toEqual(['auction', 'delinquency-status-change']);
    expect(added[1].envelope.payload.delinquencyStatusChange).toMatchObject({ delinquencyNewStatus: 'PAID', paymentDate: paidOn });
  });
});

describe('operator pause and resume (DelinquencyService)', () => {
  const service = () => new DelinquencyService(db, new OutboxPublisher('delinquency-test'));
  const PAUSED_ON = sql<never, [string, string]>('UPDATE delinquencies SET status_changed_on = $2::date WHERE rental_record_uuid = $1');

  it('halts progression while paused and does not count the paused days afterwards', async () => {
    const uuid = await rentalOwing(db, 6_000, DUE_ON);
    const schedule = DEFAULT_DELINQUENCY_SCHEDULE;
    await advance(advancer, [uuid], addDays(DUE_ON, schedule.graceDays + 1), schedule);
    expect(await openDelinquencyStatus(db, uuid)).toBe('OVERDUE');

    const paused = await service().pause({ rentalRecordUuid: uuid });
    expect(paused).toMatchObject({ status: 'PAUSED', pausedFrom: 'OVERDUE' });
    expect(await openDelinquencyStatus(db, uuid)).toBe('PAUSED');
    // Far past every stage's day: a paused rental gets nothing.
    expect(await advance(advancer, [uuid], addDays(DUE_ON, 400), schedule)).toEqual({ transitions: 0, failures: [] });

    // Paused ten days ago (the facility's today is the real one): resuming moves the due date on by ten days.
    const today = paused.statusChangedOn;
    await query(db, PAUSED_ON, [uuid, addDays(today, -10)]);
    expect(await service().resume({ rentalRecordUuid: uuid })).toMatchObject({ status: 'OVERDUE', pausedFrom: null, statusChangedOn: today });
    const shifted = addDays(DUE_ON, 10);
    expect((await query(db, DELINQUENCY, [uuid]))[0].pastDueSince).toBe(shifted);
    // OVERLOCK now falls on the shifted due date's overlock day, not the original one.
    expect(await advance(advancer, [uuid], addDays(DUE_ON, schedule.overlockDay + 9), schedule)).toEqual({ transitions: 0, failures: [] });
    expect(await advance(advancer, [uuid], addDays(shifted, schedule.overlockDay), schedule)).toEqual({ transitions: 1, failures: [] });
    expect(await status(uuid)).toBe('OVERLOCK');
  });

  it('writes off what is owed: balance to zero through the ledger, gate code restored, no open delinquency, nothing after', async () => {
    const uuid = await rentalOwing(db, 8_000, DUE_ON);
    await advance(advancer, [uuid], addDays(DUE_ON, 12), DEFAULT_DELINQUENCY_SCHEDULE);
    expect(await suspended(uuid)).toBe(true);
    expect(await service().writeOff({ rentalRecordUuid: uuid })).toMatchObject({ status: 'WRITTEN_OFF' });
    expect((await query(db, BALANCE, [uuid]))[0].balance).toBe(0);
    expect(await suspended(uuid)).toBe(false);
    expect(await openDelinquencyStatus(db, uuid)).toBeNull();
    await expect(service().pause({ rentalRecordUuid: uuid })).rejects.toThrow(/WRITTEN_OFF/);
    expect(await advance(advancer, [uuid], addDays(DUE_ON, 400), DEFAULT_DELINQUENCY_SCHEDULE)).toEqual({ transitions: 0, failures: [] });
  });
});

describe('saveFacilitySchedule', () => {
  it('writes a facility’s own schedule once, keeps it when unchanged, and refuses stages out of order', async () => {
    const { facilityUuid } = await insertRentalParents(db);
    const schedule = { graceDays: 3, overlockDay: 8, lienDay: 20, auctionDay: 40, lateFeeInPennies: 1_000 };
    expect(await saveFacilitySchedule(db, facilityUuid, schedule)).toBe(true);
    expect(await saveFacilitySchedule(db, facilityUuid, schedule)).toBe(false);
    expect(await facilitySchedule(db, facilityUuid)).toEqual({ facilityUuid, schedule, isDefault: false });
    await expect(saveFacilitySchedule(db, facilityUuid, { ...schedule, overlockDay: 3 })).rejects.toThrow(/in order/);
    expect((await facilitySchedule(db, facilityUuid)).schedule).toEqual(schedule);
  });
});
