import { randomUUID } from 'node:crypto';
import { addDays, createEnvelope, isUuid, type EventEnvelope } from '@storage/domain';
import { runOnce } from '@storage/messaging';
import { describeWithKafka } from '@storage/testing';
import { PAYMENTS_GROUP } from '../../src/payments/payments.controller';
import { expectBasePayload } from '../support/base-payload';
import { clearBalance, seedFacility, seedRental, type FacilityFixture, type RentalFixture } from '../support/fixtures';
import { ofType, outboxEvents, statusTrail } from '../support/outbox';
import { receiveEvents, type ReceivedEvents } from '../support/received-events';
import { schedulerTestBed, type SchedulerInstance } from '../support/harness';

/** The journey, asserted on what a consumer receives through the given transport (Kafka when brokers are given). */
function journey(kafkaBrokers: string | undefined): void {
  let bed: Awaited<ReturnType<typeof schedulerTestBed>>;
  let scheduler: SchedulerInstance;
  let consumer: ReceivedEvents;
  let facility: FacilityFixture;
  let rental: RentalFixture;

  beforeAll(async () => {
    bed = await schedulerTestBed();
    scheduler = bed.scheduler;
    consumer = await receiveEvents(scheduler.dataSource, bed.database.url, kafkaBrokers);
    facility = await seedFacility(scheduler.dataSource);
    rental = await seedRental(scheduler.dataSource, facility, { balanceInPennies: 10000, nextDueDate: '2025-03-01' });
  });
  afterAll(async () => {
    await consumer?.close();
    await bed.close();
  });

  const events = () => consumer.of(rental.rentalRecordUuid);

  /** Runs each date twice; the second run of a date must emit nothing. */
  async function runDays(from: string, through: string): Promise<void> {
    const emitted = async () => (await outboxEvents(scheduler.dataSource, rental.rentalRecordUuid)).length;
    for (let date = from; date <= through; date = addDays(date, 1)) {
      await scheduler.run(date);
      const after = await emitted();
      await scheduler.run(date);
      expect(await emitted()).toBe(after);
    }
  }

  const expectBase = (event: EventEnvelope<'delinquency-status-change' | 'auction'>, balance: number) =>
    expectBasePayload(event, facility, rental, { balance, nextDueDate: '2025-03-01' });

  const suspended = async (): Promise<boolean> =>
    (await scheduler.dataSource.query<unknown[]>('SELECT 1 FROM gate_code_suspensions WHERE rental_record_uuid = $1', [rental.rentalRecordUuid])).length === 1;

  it('stays current through the grace days', async () => {
    await runDays('2025-03-01', '2025-03-06');
    expect(await events()).toEqual([]);
  });

  it('becomes OVERDUE on the 6th day past due, with the late fee charged first', async () => {
    await runDays('2025-03-07', '2025-03-07');
    const all = await events();
    expect(all.map((event) => event.type)).toEqual(['charge-posted', 'delinquency-status-change']);
    expect(ofType(all, 'charge-posted')[0].payload).toEqual({
      rentalRecordUuid: rental.rentalRecordUuid,
      chargeUuid: expect.any(String),
      amountInPennies: 2000,
      description: 'Late fee',
      balanceAfterInPennies: 12000,
      dueDate: '2025-03-07',
    });
    const [overdue] = ofType(all, 'delinquency-status-change');
    expectBase(overdue, 12000);
    expect(isUuid(overdue.payload.delinquencyStatusChange.delinquencyUuid)).toBe(true);
    expect(overdue.payload.delinquencyStatusChange).toEqual({
      delinquencyUuid: overdue.payload.delinquencyStatusChange.delinquencyUuid,
      delinquencyPreviousStatus: null,
      delinquencyNewStatus: 'OVERDUE',
      delinquencyStatusChangeDate: '2025-03-07',
      paymentDate: null,
    });
    expect(await suspended()).toBe(false);
  });

  it('advances to OVERLOCK (gate code suspended), LIEN and AUCTION on their days, each once', async () => {
    await runDays('2025-03-08', '2025-04-30');
    const all = await events();
    expect(statusTrail(all)).toEqual([
      'null→OVERDUE@2025-03-07',
      'OVERDUE→OVERLOCK@2025-03-11',
      'OVERLOCK→LIEN@2025-03-31',
      'LIEN→AUCTION@2025-04-30',
    ]);
    const changes = ofType(all, 'delinquency-status-change');
    const delinquencyUuid = changes[0].payload.delinquencyStatusChange.delinquencyUuid;
    for (const change of changes) {
      expectBase(change, 12000);
      expect(change.payload.delinquencyStatusChange.delinquencyUuid).toBe(delinquencyUuid);
      expect(change.payload.delinquencyStatusChange.paymentDate).toBeNull();
    }
    expect(await suspended()).toBe(true);

    const [created] = ofType(all, 'auction');
    expect(all[all.length - 1]).toBe(created);
    expectBase(created, 12000);
    expect(created.payload.auction).toEqual({
      auctionUuid: expect.any(String),
      auctionCanceledOnDate: null,
      auctionScheduledOnDate: '2025-05-14',
      auctionCompletedOnDate: null,
      auctionStartDate: '2025-05-14',
      auctionEndDate: '2025-05-21',
      auctionStage: 'CREATED',
      minimumBidAmount: [{ amountInPennies: 12000 }],
      winningBidAmount: [],
    });
    // Event times only move forward for a rental.
    const times = all.map((event) => Date.parse(event.occurredAt));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  function payment(balanceAfterInPennies: number, paidOn: string): EventEnvelope<'payment-recorded'> {
    return createEnvelope({
      type: 'payment-recorded',
      payload: { rentalRecordUuid: rental.rentalRecordUuid, paymentUuid: randomUUID(), amountInPennies: 1000, balanceAfterInPennies, paidOn },
      occurredAt: new Date(),
      portfolio: facility.portfolioId,
    });
  }

  const consume = (envelope: EventEnvelope<'payment-recorded'>) =>
    runOnce(scheduler.dataSource, PAYMENTS_GROUP, envelope.eventId, async (manager) => {
      await scheduler.delinquency.resolvePayment(manager, envelope.payload);
    });

  it('ignores a partial payment', async () => {
    const before = (await events()).length;
    await consume(payment(2000, '2025-05-01'));
    expect(await events()).toHaveLength(before);
  });

  it('cancels the pending auction and moves to PAID when a payment clears the balance, once', async () => {
    const before = (await events()).length;
    await clearBalance(scheduler.dataSource, rental.rentalRecordUuid, '2025-05-02');
    const cleared = payment(0, '2025-05-02');
    expect(await consume(cleared)).toBe(true);
    expect(await consume(cleared)).toBe(false);
    const all = await events();
    const added = all.slice(before);
    expect(added.map((event) => event.type)).toEqual(['auction', 'delinquency-status-change']);
    const [canceled, paid] = added as [EventEnvelope<'auction'>, EventEnvelope<'delinquency-status-change'>];
    const [created] = ofType(all, 'auction');
    expectBase(canceled, 0);
    expect(canceled.payload.auction).toEqual({
      ...created.payload.auction,
      auctionStage: 'CANCELED',
      auctionCanceledOnDate: '2025-05-02',
    });
    expectBase(paid, 0);
    const [overdue] = ofType(all, 'delinquency-status-change');
    expect(paid.payload.delinquencyStatusChange).toEqual({
      delinquencyUuid: overdue.payload.delinquencyStatusChange.delinquencyUuid,
      delinquencyPreviousStatus: 'AUCTION',
      delinquencyNewStatus: 'PAID',
      delinquencyStatusChangeDate: '2025-05-02',
      paymentDate: '2025-05-02',
    });
    expect(await suspended()).toBe(false);
  });

  it('stays PAID while nothing is owed', async () => {
    const before = (await events()).length;
    await runDays('2025-05-03', '2025-05-10');
    expect(await events()).toHaveLength(before);
  });
}

describe('a rental driven day by day through every stage, then paid (embedded transport)', () => journey(undefined));
describeWithKafka('a rental driven day by day through every stage, then paid (Kafka)', (brokers) => journey(brokers));
