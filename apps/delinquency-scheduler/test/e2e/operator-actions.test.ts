import { addDays, balanceOf, IllegalDelinquencyTransition, type DelinquencyStatus, type EventEnvelope } from '@storage/domain';
import { DelinquencyConflict, InvalidDelinquencyInput } from '@storage/delinquency';
import { asLedgerLines, ledgerEntries } from '@storage/rental-ledger';
import { describeWithKafka } from '@storage/testing';
import { query, sql } from '@storage/persistence';
import { expectBasePayload, type RentalShown } from '../support/base-payload';
import { changeBalance, seedFacility, seedRental, type FacilityFixture, type RentalFixture } from '../support/fixtures';
import { ofType, statusTrail } from '../support/outbox';
import { receiveEvents, type ReceivedEvents } from '../support/received-events';
import { schedulerTestBed, type SchedulerInstance } from '../support/harness';

// Below 60 % occupied the unit group's current rates are its base rates -5 % (street) and -10 % (web); from 60 % on,
// its base rates.
const OCCUPANCY_BANDS = [
  { minOccupancyPercent: 0, maxOccupancyPercent: 60, streetAdjustmentPercent: -5, webAdjustmentPercent: -10 },
  { minOccupancyPercent: 60, maxOccupancyPercent: 100, streetAdjustmentPercent: 0, webAdjustmentPercent: 0 },
];

/** The operator actions, asserted on what a consumer receives through the given transport (Kafka when brokers are given). */
function operatorActions(kafkaBrokers: string | undefined): void {
  let bed: Awaited<ReturnType<typeof schedulerTestBed>>;
  let scheduler: SchedulerInstance;
  let consumer: ReceivedEvents;
  let facility: FacilityFixture;
  let today: string;

  beforeAll(async () => {
    bed = await schedulerTestBed();
    scheduler = bed.scheduler;
    consumer = await receiveEvents(scheduler.dataSource, bed.database.url, kafkaBrokers);
    facility = await seedFacility(scheduler.dataSource, { occupancyBands: OCCUPANCY_BANDS });
    const rows = await query(
      scheduler.dataSource,
      sql<{ today: string }>(`SELECT (now() AT TIME ZONE time_zone)::date::text AS today FROM facilities WHERE uuid = $1`),
      [facility.facilityUuid],
    );
    today = rows[0].today;
  });
  afterAll(async () => {
    await consumer?.close();
    await bed.close();
  });

  const ref = (rentalRecordUuid: string) => ({ rentalRecordUuid, facilityUuid: facility.facilityUuid, portfolioUuid: facility.portfolioUuid });
  const groupRates = async (): Promise<{ street: number; web: number }> => {
    const rows = await query(
      scheduler.dataSource,
      sql<{ street: number; web: number }>(
        'SELECT current_street_rate_in_pennies AS street, current_web_rate_in_pennies AS web FROM unit_groups WHERE uuid = $1',
      ),
      [facility.unitGroupUuid],
    );
    return rows[0];
  };
  const newEvents = async (rentalRecordUuid: string, since: number): Promise<EventEnvelope[]> => (await consumer.of(rentalRecordUuid)).slice(since);

  /** The one status change `added` holds, its base payload and its change object, field by field. */
  function expectStatusChange(
    added: EventEnvelope[],
    rental: RentalFixture,
    shown: RentalShown,
    change: { delinquencyUuid: string; from: DelinquencyStatus; to: DelinquencyStatus },
  ): void {
    expect(added.map((event) => event.type)).toEqual(['delinquency-status-change']);
    const [event] = ofType(added, 'delinquency-status-change');
    expectBasePayload(event, facility, rental, shown);
    expect(event.payload.delinquencyStatusChange).toEqual({
      delinquencyUuid: change.delinquencyUuid,
      delinquencyPreviousStatus: change.from,
      delinquencyNewStatus: change.to,
      delinquencyStatusChangeDate: today,
      paymentDate: null,
    });
  }

  it('pauses, holds progression while paused, resumes, then writes off', async () => {
    const rental = await seedRental(scheduler.dataSource, facility, { balanceInPennies: 10000, dueOn: '2025-03-01' });
    const { rentalRecordUuid } = rental;
    await expect(scheduler.delinquency.pause(ref(rentalRecordUuid))).rejects.toBeInstanceOf(IllegalDelinquencyTransition);
    await scheduler.run('2025-03-07');
    const overdue = await consumer.of(rentalRecordUuid);
    expect(statusTrail(overdue)).toEqual(['null→OVERDUE@2025-03-07']);
    const delinquencyUuid = ofType(overdue, 'delinquency-status-change')[0].payload.delinquencyStatusChange.delinquencyUuid;
    const owing: RentalShown = { balance: 12000, nextDueDate: '2025-04-01' };
    let seen = overdue.length;

    await expect(scheduler.delinquency.resume(ref(rentalRecordUuid))).rejects.toBeInstanceOf(IllegalDelinquencyTransition);
    expect(await scheduler.delinquency.pause(ref(rentalRecordUuid))).toMatchObject({ status: 'PAUSED', pausedFrom: 'OVERDUE' });
    let added = await newEvents(rentalRecordUuid, seen);
    expectStatusChange(added, rental, owing, { delinquencyUuid, from: 'OVERDUE', to: 'PAUSED' });
    seen += added.length;

    // Paused, the rental is still billed (April's rent and service), and nothing else happens.
    for (let date = '2025-03-08'; date <= '2025-04-30'; date = addDays(date, 1)) await scheduler.run(date);
    added = await newEvents(rentalRecordUuid, seen);
    expect(added.map((event) => [event.type, (event as EventEnvelope<'charge-posted'>).payload.dueDate])).toEqual([
      ['charge-posted', '2025-04-01'],
      ['charge-posted', '2025-04-01'],
    ]);
    seen += added.length;
    const billedApril: RentalShown = { balance: 23200, nextDueDate: '2025-05-01' };

    expect(await scheduler.delinquency.resume(ref(rentalRecordUuid))).toMatchObject({ status: 'OVERDUE', pausedFrom: null });
    added = await newEvents(rentalRecordUuid, seen);
    expectStatusChange(added, rental, billedApril, { delinquencyUuid, from: 'PAUSED', to: 'OVERDUE' });
    seen += added.length;

    expect(await scheduler.delinquency.writeOff(ref(rentalRecordUuid))).toMatchObject({ status: 'WRITTEN_OFF' });
    added = await newEvents(rentalRecordUuid, seen);
    expectStatusChange(added, rental, { ...billedApril, balance: 0 }, { delinquencyUuid, from: 'OVERDUE', to: 'WRITTEN_OFF' });
    seen += added.length;
    expect((await ledgerEntries(scheduler.dataSource.manager, rentalRecordUuid)).at(-1)).toMatchObject({
      kind: 'WRITE_OFF',
      amountInPennies: -billedApril.balance,
    });

    await expect(scheduler.delinquency.pause(ref(rentalRecordUuid))).rejects.toBeInstanceOf(IllegalDelinquencyTransition);
    await expect(scheduler.delinquency.writeOff(ref(rentalRecordUuid))).rejects.toBeInstanceOf(IllegalDelinquencyTransition);
    // Written off is final: a rental still occupying its unit is billed, but its delinquency never moves again.
    await changeBalance(scheduler.dataSource, rentalRecordUuid, 5000, '2025-04-01');
    for (const date of ['2025-05-01', '2025-06-01', '2025-07-01']) await scheduler.run(date);
    expect((await newEvents(rentalRecordUuid, seen)).map((event) => event.type)).toEqual(Array(6).fill('charge-posted'));
  });

  it('catches every stage up in order on one date, then schedules, updates, cancels and completes the auction', async () => {
    // Enrolled in the coverage its Tenant protection service bills.
    const rental = await seedRental(scheduler.dataSource, facility, { balanceInPennies: 10000, dueOn: '2025-01-01', coverage: true });
    const { rentalRecordUuid } = rental;
    // One run catches up February's and March's billing (posted that day, due on their own days), then every stage.
    await scheduler.run('2025-03-02');
    let all = await consumer.of(rentalRecordUuid);
    expect(ofType(all, 'charge-posted').map((charge) => [charge.payload.amountInPennies, charge.payload.dueDate])).toEqual([
      [10000, '2025-02-01'],
      [1200, '2025-02-01'],
      [10000, '2025-03-01'],
      [1200, '2025-03-01'],
      [2000, '2025-01-07'],
    ]);
    expect(statusTrail(all)).toEqual(['null→OVERDUE@2025-01-07', 'OVERDUE→OVERLOCK@2025-01-11', 'OVERLOCK→LIEN@2025-01-31', 'LIEN→AUCTION@2025-03-02']);
    const owing: RentalShown = { balance: 34400, nextDueDate: '2025-04-01' };
    const changes = ofType(all, 'delinquency-status-change');
    const delinquencyUuid = changes[0].payload.delinquencyStatusChange.delinquencyUuid;
    const [created] = ofType(all, 'auction');
    for (const event of [...changes, created]) expectBasePayload(event, facility, rental, owing);
    expect(changes.map((event) => event.payload.delinquencyStatusChange)).toEqual(
      changes.map((event) => ({ ...event.payload.delinquencyStatusChange, delinquencyUuid, paymentDate: null })),
    );
    const seen = all.length;

    await expect(scheduler.auctions.schedule(ref(rentalRecordUuid), { scheduledOn: addDays(today, -1) })).rejects.toMatchObject({
      constructor: InvalidDelinquencyInput,
      field: 'scheduledOn',
    });
    const saleDay = addDays(today, 20);
    const scheduled = await scheduler.auctions.schedule(ref(rentalRecordUuid), { scheduledOn: saleDay });
    expect(scheduled).toEqual({
      ...created.payload.auction,
      auctionStage: 'SCHEDULED',
      auctionScheduledOnDate: saleDay,
      auctionStartDate: saleDay,
      auctionEndDate: addDays(saleDay, 7),
    });
    const updated = await scheduler.auctions.update(ref(rentalRecordUuid), { minimumBidInPennies: 5000, endDate: addDays(saleDay, 3) });
    expect(updated).toEqual({ ...scheduled, minimumBidAmount: [{ amountInPennies: 5000 }], auctionEndDate: addDays(saleDay, 3) });
    const canceled = await scheduler.auctions.cancel(ref(rentalRecordUuid));
    expect(canceled).toEqual({ ...updated, auctionStage: 'CANCELED', auctionCanceledOnDate: today });
    await expect(scheduler.auctions.cancel(ref(rentalRecordUuid))).rejects.toBeInstanceOf(DelinquencyConflict);

    const again = await scheduler.auctions.schedule(ref(rentalRecordUuid), { scheduledOn: saleDay });
    expect(again).toEqual({ ...scheduled, auctionUuid: expect.any(String) });
    expect(again.auctionUuid).not.toBe(scheduled.auctionUuid);
    await expect(scheduler.auctions.complete(ref(rentalRecordUuid), 34399)).rejects.toMatchObject({ field: 'winningBidInPennies' });
    // Every unit of the group let (each letting repriced it): its base rates, until the auction frees a unit.
    expect(await groupRates()).toEqual({ street: 12000, web: 11000 });
    const completed = await scheduler.auctions.complete(ref(rentalRecordUuid), 35000);
    expect(completed).toEqual({ ...again, auctionStage: 'COMPLETED', auctionCompletedOnDate: today, winningBidAmount: [{ amountInPennies: 35000 }] });

    all = await newEvents(rentalRecordUuid, seen);
    expect(all.map((event) => event.type)).toEqual(['auction', 'auction', 'auction', 'auction', 'auction', 'delinquency-status-change', 'moved-out']);
    const auctions = ofType(all, 'auction');
    expect(auctions.map((event) => event.payload.auction)).toEqual([scheduled, updated, canceled, again, completed]);
    auctions.slice(0, 4).forEach((event) => expectBasePayload(event, facility, rental, owing));
    // Completion's events show the rental as the api's move-out does: moved out today, its service ended; the bid
    // applied and the rest written off.
    const ended: RentalShown = { ...owing, balance: 0, endRentDate: today, servicesEnded: true };
    expectBasePayload(auctions[4], facility, rental, ended);
    expectStatusChange(all.slice(5, 6), rental, ended, { delinquencyUuid, from: 'AUCTION', to: 'WRITTEN_OFF' });
    const [movedOut] = ofType(all, 'moved-out');
    expectBasePayload(movedOut, facility, rental, ended);
    // In the ledger: the bid's share pays the debt (all of it here, so nothing is written off).
    const entries = await ledgerEntries(scheduler.dataSource.manager, rentalRecordUuid);
    expect(entries.map((entry) => [entry.kind, entry.amountInPennies])).toEqual([
      ['RENT', 10000],
      ['RENT', 10000],
      ['SERVICE_FEE', 1200],
      ['RENT', 10000],
      ['SERVICE_FEE', 1200],
      ['LATE_FEE', 2000],
      ['AUCTION_PROCEEDS', -34400],
    ]);
    expect(balanceOf(asLedgerLines(entries))).toBe(0);

    const [state] = await query(
      scheduler.dataSource,
      sql(`SELECT r.status, r.balance_in_pennies, u.status AS unit_status, d.written_off_in_pennies,
              (SELECT count(*)::int FROM gate_codes g WHERE g.rental_record_uuid = r.uuid) AS gate_codes,
              (SELECT count(*)::int FROM gate_code_suspensions s WHERE s.rental_record_uuid = r.uuid) AS suspensions,
              ARRAY(SELECT s.end_date::text FROM rental_services s WHERE s.rental_record_uuid = r.uuid) AS service_ends,
              ARRAY(SELECT e.end_date IS NOT NULL FROM coverage_enrollments e WHERE e.rental_record_uuid = r.uuid) AS coverages_ended
         FROM rental_records r JOIN units u ON u.uuid = r.unit_uuid JOIN delinquencies d ON d.rental_record_uuid = r.uuid
        WHERE r.uuid = $1`),
      [rentalRecordUuid],
    );
    expect(state).toEqual({
      status: 'MOVED_OUT',
      balance_in_pennies: 0,
      unit_status: 'vacant',
      written_off_in_pennies: 0,
      gate_codes: 0,
      suspensions: 0,
      service_ends: [today],
      coverages_ended: [true],
    });
    // Repriced as on any move-out: under 60 % occupied now, so base rates -5 % (street) and -10 % (web).
    expect(await groupRates()).toEqual({ street: 11400, web: 9900 });
    await expect(scheduler.auctions.schedule(ref(rentalRecordUuid), { scheduledOn: saleDay })).rejects.toBeInstanceOf(DelinquencyConflict);
  });
}

describe('operator actions: pause, resume, write-off and the auction operations (embedded transport)', () => operatorActions(undefined));
describeWithKafka('operator actions: pause, resume, write-off and the auction operations (Kafka)', (brokers) => operatorActions(brokers));
