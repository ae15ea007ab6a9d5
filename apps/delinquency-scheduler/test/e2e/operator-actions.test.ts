import { addDays, IllegalDelinquencyTransition, type EventEnvelope } from '@storage/domain';
import { DelinquencyConflict, InvalidDelinquencyInput } from '@storage/delinquency';
import { seedFacility, seedRental, type FacilityFixture } from '../support/fixtures';
import { ofType, outboxEvents, statusTrail } from '../support/outbox';
import { schedulerTestBed, type SchedulerInstance } from '../support/harness';

describe('operator actions: pause, resume, write-off and the auction operations', () => {
  let bed: Awaited<ReturnType<typeof schedulerTestBed>>;
  let scheduler: SchedulerInstance;
  let facility: FacilityFixture;
  let today: string;

  beforeAll(async () => {
    bed = await schedulerTestBed();
    scheduler = bed.scheduler;
    facility = await seedFacility(scheduler.dataSource);
    const rows: { today: string }[] = await scheduler.dataSource.query(
      `SELECT (now() AT TIME ZONE time_zone)::date::text AS today FROM facilities WHERE uuid = $1`,
      [facility.facilityUuid],
    );
    today = rows[0].today;
  });
  afterAll(() => bed.close());

  const ref = (rentalRecordUuid: string) => ({ rentalRecordUuid, facilityUuid: facility.facilityUuid, portfolioUuid: facility.portfolioUuid });
  const newEvents = async (rentalRecordUuid: string, since: number): Promise<EventEnvelope[]> =>
    (await outboxEvents(scheduler.dataSource, rentalRecordUuid)).slice(since);

  it('pauses, holds progression while paused, resumes, then writes off', async () => {
    const { rentalRecordUuid } = await seedRental(scheduler.dataSource, facility, { balanceInPennies: 10000, nextDueDate: '2025-03-01' });
    await expect(scheduler.delinquency.pause(ref(rentalRecordUuid))).rejects.toBeInstanceOf(IllegalDelinquencyTransition);
    await scheduler.run('2025-03-07');
    let seen = (await outboxEvents(scheduler.dataSource, rentalRecordUuid)).length;

    await expect(scheduler.delinquency.resume(ref(rentalRecordUuid))).rejects.toBeInstanceOf(IllegalDelinquencyTransition);
    expect(await scheduler.delinquency.pause(ref(rentalRecordUuid))).toMatchObject({ status: 'PAUSED', pausedFrom: 'OVERDUE' });
    let added = await newEvents(rentalRecordUuid, seen);
    expect(statusTrail(added)).toEqual([`OVERDUE→PAUSED@${today}`]);
    expect(ofType(added, 'delinquency-status-change')[0].payload.delinquencyStatusChange.paymentDate).toBeNull();
    seen += added.length;

    for (let date = '2025-03-08'; date <= '2025-04-30'; date = addDays(date, 1)) await scheduler.run(date);
    expect(await newEvents(rentalRecordUuid, seen)).toEqual([]);

    expect(await scheduler.delinquency.resume(ref(rentalRecordUuid))).toMatchObject({ status: 'OVERDUE', pausedFrom: null });
    added = await newEvents(rentalRecordUuid, seen);
    expect(statusTrail(added)).toEqual([`PAUSED→OVERDUE@${today}`]);
    seen += added.length;

    expect(await scheduler.delinquency.writeOff(ref(rentalRecordUuid))).toMatchObject({ status: 'WRITTEN_OFF' });
    added = await newEvents(rentalRecordUuid, seen);
    expect(statusTrail(added)).toEqual([`OVERDUE→WRITTEN_OFF@${today}`]);
    expect(ofType(added, 'delinquency-status-change')[0].payload.unitRental.rentalBalance).toBe(0);
    seen += added.length;

    await expect(scheduler.delinquency.pause(ref(rentalRecordUuid))).rejects.toBeInstanceOf(IllegalDelinquencyTransition);
    await expect(scheduler.delinquency.writeOff(ref(rentalRecordUuid))).rejects.toBeInstanceOf(IllegalDelinquencyTransition);
    await scheduler.dataSource.query('UPDATE rental_records SET balance_in_pennies = 5000 WHERE uuid = $1', [rentalRecordUuid]);
    for (const date of ['2025-05-01', '2025-06-01', '2025-07-01']) await scheduler.run(date);
    expect(await newEvents(rentalRecordUuid, seen)).toEqual([]);
  });

  it('catches every stage up in order on one date, then schedules, updates, cancels and completes the auction', async () => {
    const rental = await seedRental(scheduler.dataSource, facility, { balanceInPennies: 10000, nextDueDate: '2025-01-01' });
    const { rentalRecordUuid } = rental;
    await scheduler.run('2025-03-02');
    let all = await outboxEvents(scheduler.dataSource, rentalRecordUuid);
    expect(statusTrail(all)).toEqual([
      'null→OVERDUE@2025-01-07',
      'OVERDUE→OVERLOCK@2025-01-11',
      'OVERLOCK→LIEN@2025-01-31',
      'LIEN→AUCTION@2025-03-02',
    ]);
    const seen = all.length;

    await expect(scheduler.auctions.schedule(ref(rentalRecordUuid), { scheduledOn: addDays(today, -1) })).rejects.toMatchObject({
      constructor: InvalidDelinquencyInput,
      field: 'scheduledOn',
    });
    const saleDay = addDays(today, 20);
    const scheduled = await scheduler.auctions.schedule(ref(rentalRecordUuid), { scheduledOn: saleDay });
    expect(scheduled).toMatchObject({ auctionStage: 'SCHEDULED', auctionScheduledOnDate: saleDay, auctionStartDate: saleDay, auctionEndDate: addDays(saleDay, 7) });
    const updated = await scheduler.auctions.update(ref(rentalRecordUuid), { minimumBidInPennies: 5000, endDate: addDays(saleDay, 3) });
    expect(updated).toMatchObject({ auctionUuid: scheduled.auctionUuid, auctionStage: 'SCHEDULED', minimumBidAmount: [{ amountInPennies: 5000 }], auctionEndDate: addDays(saleDay, 3) });
    const canceled = await scheduler.auctions.cancel(ref(rentalRecordUuid));
    expect(canceled).toMatchObject({ auctionUuid: scheduled.auctionUuid, auctionStage: 'CANCELED', auctionCanceledOnDate: today });
    await expect(scheduler.auctions.cancel(ref(rentalRecordUuid))).rejects.toBeInstanceOf(DelinquencyConflict);

    const again = await scheduler.auctions.schedule(ref(rentalRecordUuid), { scheduledOn: saleDay });
    expect(again.auctionUuid).not.toBe(scheduled.auctionUuid);
    expect(again.minimumBidAmount).toEqual([{ amountInPennies: 12000 }]);
    await expect(scheduler.auctions.complete(ref(rentalRecordUuid), 11999)).rejects.toMatchObject({ field: 'winningBidInPennies' });
    const completed = await scheduler.auctions.complete(ref(rentalRecordUuid), 12500);
    expect(completed).toMatchObject({ auctionStage: 'COMPLETED', auctionCompletedOnDate: today, winningBidAmount: [{ amountInPennies: 12500 }] });

    all = await newEvents(rentalRecordUuid, seen);
    expect(all.map((event) => event.type)).toEqual(['auction', 'auction', 'auction', 'auction', 'auction', 'delinquency-status-change', 'moved-out']);
    expect(ofType(all, 'auction').map((event) => event.payload.auction.auctionStage)).toEqual(['SCHEDULED', 'SCHEDULED', 'CANCELED', 'SCHEDULED', 'COMPLETED']);
    expect(statusTrail(all)).toEqual([`AUCTION→WRITTEN_OFF@${today}`]);
    const [movedOut] = ofType(all, 'moved-out');
    expect(movedOut.payload.unitRental).toMatchObject({ endRentDate: today, rentalBalance: 0 });

    const [state] = await scheduler.dataSource.query(
      `SELECT r.status, r.balance_in_pennies, u.status AS unit_status, d.written_off_in_pennies,
              (SELECT count(*)::int FROM gate_codes g WHERE g.rental_record_uuid = r.uuid) AS gate_codes,
              (SELECT count(*)::int FROM gate_code_suspensions s WHERE s.rental_record_uuid = r.uuid) AS suspensions
         FROM rental_records r JOIN units u ON u.uuid = r.unit_uuid JOIN delinquencies d ON d.rental_record_uuid = r.uuid
        WHERE r.uuid = $1`,
      [rentalRecordUuid],
    );
    expect(state).toEqual({ status: 'MOVED_OUT', balance_in_pennies: 0, unit_status: 'vacant', written_off_in_pennies: 0, gate_codes: 0, suspensions: 0 });
    await expect(scheduler.auctions.schedule(ref(rentalRecordUuid), { scheduledOn: saleDay })).rejects.toBeInstanceOf(DelinquencyConflict);
  });
});
