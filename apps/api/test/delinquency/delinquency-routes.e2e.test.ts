import { addDays, BILLING_TOPIC, DEFAULT_DELINQUENCY_SCHEDULE, parseEnvelope } from '@storage/domain';
import { DelinquencyService } from '@storage/delinquency';
import { OutboxPublisher } from '@storage/messaging';
import { expectProblem, startTestApi, type TestApi } from '../support/test-api';

let api: TestApi;
let delinquency: DelinquencyService;
beforeAll(async () => {
  api = await startTestApi();
  delinquency = new DelinquencyService(api.db, new OutboxPublisher('test'));
});
afterAll(async () => api.close());

const base = '/api/demo/portfolios/v1';

interface Rental {
  uuid: string;
  facility: string;
  today: string;
}

/** An active demo rental not delinquent yet, owing $90 from today. */
async function owingRental(): Promise<Rental> {
  const [row] = await api.db.query(
    `SELECT r.uuid, r.facility_uuid AS facility, (now() AT TIME ZONE f.time_zone)::date::text AS today
       FROM rental_records r JOIN facilities f ON f.uuid = r.facility_uuid
      WHERE r.status = 'ACTIVE' AND NOT EXISTS (SELECT 1 FROM delinquencies d WHERE d.rental_record_uuid = r.uuid)
      ORDER BY r.uuid LIMIT 1`,
  );
  await api.db.query('UPDATE rental_records SET balance_in_pennies = 9000, next_due_date = $2 WHERE uuid = $1', [row.uuid, row.today]);
  return row as Rental;
}

/** The debt made `days` old, and every stage that brings applied by the scheduler's own service. */
async function pastDue(rental: Rental, days: number): Promise<void> {
  await api.db.query('UPDATE rental_records SET next_due_date = $2 WHERE uuid = $1', [rental.uuid, addDays(rental.today, -days)]);
  while ((await delinquency.advance(rental.uuid, rental.today, DEFAULT_DELINQUENCY_SCHEDULE)) !== null);
}

/** 61 days past due: AUCTION. */
async function rentalInAuction(): Promise<Rental> {
  const rental = await owingRental();
  await pastDue(rental, 61);
  return rental;
}

const rentalPath = (rental: Rental, action: string) => `${base}/facilities/${rental.facility}/rentalRecords/${rental.uuid}/${action}`;

describe('GET delinquencySchedule', () => {
  it('answers the defaults for a facility without its own schedule, 404 elsewhere, 400 for a bad uuid', async () => {
    const [{ uuid }] = await api.db.query(`SELECT f.uuid FROM facilities f JOIN portfolios p ON p.uuid = f.portfolio_uuid WHERE p.portfolio_id = 'demo' LIMIT 1`);
    const reply = await api.call('GET', `${base}/facilities/${uuid}/delinquencySchedule`, { key: api.keys.read });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ facilityUuid: uuid, graceDays: 5, overlockDay: 10, lienDay: 30, auctionDay: 60, lateFeeInPennies: 2000, isDefault: true });
    expectProblem(await api.call('GET', `${base}/facilities/${uuid}/delinquencySchedule`, { key: api.keys.other }), 404);
    expectProblem(await api.call('GET', `${base}/facilities/not-a-uuid/delinquencySchedule`), 400, ['facilityUuid']);
  });
});

describe('delinquency and auction operations', () => {
  it('schedules, updates and cancels the auction, pauses, resumes and writes off, refusing what the state forbids', async () => {
    const rental = await rentalInAuction();
    expectProblem(await api.call('POST', rentalPath(rental, 'auction/schedule'), { body: { scheduledOn: '2025-02-30' } }), 400, ['scheduledOn']);
    expectProblem(await api.call('POST', rentalPath(rental, 'auction/schedule'), { body: { scheduledOn: addDays(rental.today, -1) } }), 400, ['scheduledOn']);
    expectProblem(await api.call('POST', rentalPath(rental, 'auction/schedule'), { body: { scheduledOn: rental.today }, key: api.keys.read }), 403);

    const scheduled = await api.call('POST', rentalPath(rental, 'auction/schedule'), { body: { scheduledOn: addDays(rental.today, 10) } });
    expect(scheduled.status).toBe(200);
    expect(scheduled.body).toMatchObject({ auctionStage: 'SCHEDULED', auctionScheduledOnDate: addDays(rental.today, 10), auctionEndDate: addDays(rental.today, 17) });
    expectProblem(await api.call('PATCH', rentalPath(rental, 'auction'), { body: { minimumBidInPennies: -1 } }), 400, ['minimumBidInPennies']);
    const updated = await api.call('PATCH', rentalPath(rental, 'auction'), { body: { minimumBidInPennies: 5000 } });
    expect(updated.body).toMatchObject({ auctionUuid: scheduled.body.auctionUuid, minimumBidAmount: [{ amountInPennies: 5000 }] });
    expect((await api.call('POST', rentalPath(rental, 'auction/cancel'))).body).toMatchObject({ auctionStage: 'CANCELED', auctionCanceledOnDate: rental.today });
    expectProblem(await api.call('POST', rentalPath(rental, 'auction/cancel')), 409);

    expect((await api.call('POST', rentalPath(rental, 'delinquency/pause'))).body).toMatchObject({ status: 'PAUSED', pausedFrom: 'AUCTION' });
    expectProblem(await api.call('POST', rentalPath(rental, 'delinquency/pause')), 409);
    expect((await api.call('POST', rentalPath(rental, 'delinquency/resume'))).body).toMatchObject({ status: 'AUCTION', pausedFrom: null });
    expect((await api.call('POST', rentalPath(rental, 'delinquency/writeOff'))).body).toMatchObject({ status: 'WRITTEN_OFF' });
    expectProblem(await api.call('POST', rentalPath(rental, 'delinquency/writeOff')), 409);

    const events: { type: string; source: string }[] = await api.db.query(
      `SELECT type, source FROM outbox WHERE key = $1 AND source = 'api' ORDER BY id`,
      [rental.uuid],
    );
    expect(events.map((event) => event.type)).toEqual([
      'auction', 'auction', 'auction', 'delinquency-status-change', 'delinquency-status-change', 'delinquency-status-change',
    ]);
  });

  it('completes the auction: 400 below the minimum bid, then the tenant is moved out', async () => {
    const rental = await rentalInAuction();
    await api.call('POST', rentalPath(rental, 'auction/schedule'), { body: { scheduledOn: rental.today } });
    expectProblem(await api.call('POST', rentalPath(rental, 'auction/complete'), { body: { winningBidInPennies: 1.5 } }), 400, ['winningBidInPennies']);
    expectProblem(await api.call('POST', rentalPath(rental, 'auction/complete'), { body: { winningBidInPennies: 1 } }), 400, ['winningBidInPennies']);
    const completed = await api.call('POST', rentalPath(rental, 'auction/complete'), { body: { winningBidInPennies: 20000 } });
    expect(completed.status).toBe(200);
    expect(completed.body).toMatchObject({ auctionStage: 'COMPLETED', winningBidAmount: [{ amountInPennies: 20000 }] });
    const [row] = await api.db.query('SELECT status, end_date::text AS end_date, balance_in_pennies FROM rental_records WHERE uuid = $1', [rental.uuid]);
    expect(row).toEqual({ status: 'MOVED_OUT', end_date: rental.today, balance_in_pennies: 0 });
    expectProblem(await api.call('POST', rentalPath(rental, 'delinquency/pause')), 409);
  });

  it('answers 404 for a rental of another facility or portfolio', async () => {
    const rental = await rentalInAuction();
    const [{ uuid: otherFacility }] = await api.db.query('SELECT uuid FROM facilities WHERE uuid <> $1 LIMIT 1', [rental.facility]);
    expectProblem(await api.call('POST', `${base}/facilities/${otherFacility}/rentalRecords/${rental.uuid}/delinquency/pause`), 404);
    expectProblem(await api.call('POST', rentalPath(rental, 'delinquency/pause'), { key: api.keys.other }), 404);
  });
});

describe('operation 14 while the gate code is suspended', () => {
  it('answers SUSPENDED from OVERLOCK until a payment clears the balance, then the code again', async () => {
    const rental = await owingRental();
    const [{ code }] = await api.db.query('SELECT code FROM gate_codes WHERE rental_record_uuid = $1', [rental.uuid]);
    const gateCode = () => api.call('GET', rentalPath(rental, 'gateAccessCode'), { key: api.keys.read });
    expect((await gateCode()).body).toBe(code);

    // Day 10 past due: OVERDUE (with the $20 late fee), then OVERLOCK, which suspends the code.
    await pastDue(rental, 10);
    const [state] = await api.db.query('SELECT status FROM delinquencies WHERE rental_record_uuid = $1', [rental.uuid]);
    expect(state.status).toBe('OVERLOCK');
    const suspended = await gateCode();
    expect(suspended.status).toBe(200);
    expect(suspended.headers['content-type']).toMatch(/^application\/json/);
    expect(suspended.body).toBe('SUSPENDED');

    // The payment through the api, and its billing fact handled as the scheduler's payments consumer does.
    expect((await api.call('POST', rentalPath(rental, 'payments'), { body: { amountInPennies: 11000 } })).status).toBe(200);
    const [fact] = await api.db.query(`SELECT envelope FROM outbox WHERE topic = $1 AND key = $2 AND type = 'payment-recorded'`, [BILLING_TOPIC, rental.uuid]);
    const payment = parseEnvelope(fact.envelope);
    if (payment.type !== 'payment-recorded') throw new Error(`expected payment-recorded, got ${payment.type}`);
    expect(payment.payload.balanceAfterInPennies).toBe(0);
    await api.db.transaction((manager) => delinquency.resolvePayment(manager, payment.payload));
    const [paid] = await api.db.query('SELECT status FROM delinquencies WHERE rental_record_uuid = $1', [rental.uuid]);
    expect(paid.status).toBe('PAID');
    expect((await gateCode()).body).toBe(code);
  });
});
