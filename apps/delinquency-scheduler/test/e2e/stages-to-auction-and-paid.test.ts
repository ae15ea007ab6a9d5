import { randomUUID } from 'node:crypto';
import { addDays, createEnvelope, isUuid, type EventEnvelope } from '@storage/domain';
import { runOnce } from '@storage/messaging';
import { query, sql } from '@storage/persistence';
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
    rental = await seedRental(scheduler.dataSource, facility, { balanceInPennies: 10000, dueOn: '2025-03-01' });
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

  /** Billed monthly on the 1st: before April's billing the next due date is April 1st. */
  const expectBase = (event: EventEnvelope<'delinquency-status-change' | 'auction'>, balance: number, nextDueDate = '2025-04-01') =>
    expectBasePayload(event, facility, rental, { balance, nextDueDate });

  const SUSPENSIONS = sql<{ rentalRecordUuid: string }>(
    'SELECT rental_record_uuid AS "rentalRecordUuid" FROM gate_code_suspensions WHERE rental_record_uuid = $1',
  );
  const suspended = async (): Promise<boolean> => (await query(scheduler.dataSource, SUSPENSIONS, [rental.rentalRecordUuid])).length === 1;

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

  it("advances to OVERLOCK (gate code suspended), LIEN and AUCTION on their days, each once, while April's rent and service are billed", async () => {
    await runDays('2025-03-08', '2025-04-30');
    const all = await events();
    // April 1st: the month's rent and service, due that day, each a charge of its own.
    const april = ofType(all, 'charge-posted').slice(1);
    expect(
      april.map((charge) => [charge.payload.description, charge.payload.amountInPennies, charge.payload.balanceAfterInPennies, charge.payload.dueDate]),
    ).toEqual([
      ['Rent 2025-04-01 to 2025-04-30', 10000, 22000, '2025-04-01'],
      ['Tenant protection', 1200, 23200, '2025-04-01'],
    ]);
    expect(statusTrail(all)).toEqual(['null→OVERDUE@2025-03-07', 'OVERDUE→OVERLOCK@2025-03-11', 'OVERLOCK→LIEN@2025-03-31', 'LIEN→AUCTION@2025-04-30']);
    const changes = ofType(all, 'delinquency-status-change');
    const delinquencyUuid = changes[0].payload.delinquencyStatusChange.delinquencyUuid;
    for (const change of changes) {
      if (change.payload.delinquencyStatusChange.delinquencyNewStatus === 'AUCTION') expectBase(change, 23200, '2025-05-01');
      else expectBase(change, 12000);
      expect(change.payload.delinquencyStatusChange.delinquencyUuid).toBe(delinquencyUuid);
      expect(change.payload.delinquencyStatusChange.paymentDate).toBeNull();
    }
    expect(await suspended()).toBe(true);

    const [created] = ofType(all, 'auction');
    expect(all[all.length - 1]).toBe(created);
    expectBase(created, 23200, '2025-05-01');
    expect(created.payload.auction).toEqual({
      auctionUuid: expect.any(String),
      auctionCanceledOnDate: null,
      auctionScheduledOnDate: '2025-05-14',
      auctionCompletedOnDate: null,
      auctionStartDate: '2025-05-14',
      auctionEndDate: '2025-05-21',
      auctionStage: 'CREATED',
      minimumBidAmount: [{ amountInPennies: 23200 }],
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
    expectBase(canceled, 0, '2025-05-01');
    expect(canceled.payload.auction).toEqual({
      ...created.payload.auction,
      auctionStage: 'CANCELED',
      auctionCanceledOnDate: '2025-05-02',
    });
    expectBase(paid, 0, '2025-05-01');
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

  it("stays PAID through May's grace days: the run of May 3rd catches up May's billing, and nothing else happens", async () => {
    const before = (await events()).length;
    await runDays('2025-05-03', '2025-05-06');
    const added = (await events()).slice(before);
    expect(added.map((event) => [event.type, (event as EventEnvelope<'charge-posted'>).payload.dueDate])).toEqual([
      ['charge-posted', '2025-05-01'],
      ['charge-posted', '2025-05-01'],
    ]);
  });
}

describe('a rental driven day by day through every stage, then paid (embedded transport)', () => journey(undefined));
describeWithKafka('a rental driven day by day through every stage, then paid (Kafka)', (brokers) => journey(brokers));
