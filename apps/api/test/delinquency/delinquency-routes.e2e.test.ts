import { addDays, BILLING_TOPIC, parseEnvelope, type EventEnvelope } from '@storage/domain';
import { DelinquencyService } from '@storage/delinquency';
import { OutboxPublisher } from '@storage/messaging';
import { advanceDelinquency } from '../support/delinquency';
import { owe } from '../support/ledger';
import { expectProblem, id, startTestApi, type TestApi } from '../support/test-api';
import { query, sql } from '@storage/persistence';

let api: TestApi;
/** The scheduler's payments consumer's service (`resolvePayment`). */
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

interface RentalChoice {
  /** This very rental (it must be active and not delinquent yet). */
  uuid?: string;
  /** One with a running service and a running coverage enrollment. */
  withServicesAndCoverage?: boolean;
}

/** An active demo rental not delinquent yet, owing $90 from today. */
async function owingRental(choice: RentalChoice = {}): Promise<Rental> {
  const [row] = await query(
    api.db,
    sql<{ uuid: string; facility: string; today: string }>(`SELECT r.uuid, r.facility_uuid AS facility, (now() AT TIME ZONE f.time_zone)::date::text AS today
       FROM rental_records r JOIN facilities f ON f.uuid = r.facility_uuid
      WHERE r.status = 'ACTIVE' AND NOT EXISTS (SELECT 1 FROM delinquencies d WHERE d.rental_record_uuid = r.uuid)
        AND ($1::uuid IS NULL OR r.uuid = $1)
        AND (NOT $2 OR (EXISTS (SELECT 1 FROM rental_services s WHERE s.rental_record_uuid = r.uuid AND s.end_date IS NULL)
                        AND EXISTS (SELECT 1 FROM coverage_enrollments e WHERE e.rental_record_uuid = r.uuid AND e.end_date IS NULL)))
      ORDER BY r.uuid LIMIT 1`),
    [choice.uuid ?? null, choice.withServicesAndCoverage ?? false],
  );
  if (row === undefined) throw new Error(`no active, not yet delinquent demo rental matches ${JSON.stringify(choice)}`);
  await owe(api.db, row.uuid, 9000, row.today);
  return row;
}

/** The debt made `days` old, and every stage that brings applied by the scheduler's business-day run. */
async function pastDue(rental: Rental, days: number): Promise<void> {
  await owe(api.db, rental.uuid, 9000, addDays(rental.today, -days));
  await advanceDelinquency(api.db, rental.uuid, rental.today);
}

/** 61 days past due: AUCTION. */
async function rentalInAuction(choice: RentalChoice = {}): Promise<Rental> {
  const rental = await owingRental(choice);
  await pastDue(rental, 61);
  return rental;
}

interface RentalEndState {
  status: string;
  endDate: string | null;
  unitStatus: string;
  runningServices: number;
  runningCoverages: number;
  gateCodes: number;
}

/** What a move-out leaves of the rental: running services and coverage, gate codes, and its unit's status. */
async function endedState(rental: Rental): Promise<RentalEndState> {
  const [state] = await query(
    api.db,
    sql<RentalEndState>(`SELECT r.status, r.end_date::text AS "endDate", u.status AS "unitStatus",
            (SELECT count(*)::int FROM rental_services s WHERE s.rental_record_uuid = r.uuid AND (s.end_date IS NULL OR s.end_date > r.end_date)) AS "runningServices",
            (SELECT count(*)::int FROM coverage_enrollments e WHERE e.rental_record_uuid = r.uuid AND e.end_date IS NULL) AS "runningCoverages",
            (SELECT count(*)::int FROM gate_codes g WHERE g.rental_record_uuid = r.uuid) AS "gateCodes"
       FROM rental_records r JOIN units u ON u.uuid = r.unit_uuid WHERE r.uuid = $1`),
    [rental.uuid],
  );
  return state;
}

/** The rental's moved-out event as subscribers receive it. */
async function movedOutEvent(rental: Rental): Promise<EventEnvelope<'moved-out'>> {
  const rows = await query(api.db, sql<{ envelope: unknown }>(`SELECT envelope FROM outbox WHERE key = $1 AND type = 'moved-out'`), [rental.uuid]);
  expect(rows).toHaveLength(1);
  const event = parseEnvelope(rows[0].envelope);
  if (event.type !== 'moved-out') throw new Error(`expected moved-out, got ${event.type}`);
  return event;
}

const rentalPath = (rental: Rental, action: string) => `${base}/facilities/${rental.facility}/rentalRecords/${rental.uuid}/${action}`;

describe('GET delinquencySchedule', () => {
  it('answers the defaults for a facility without its own schedule, 404 elsewhere, 400 for a bad uuid', async () => {
    const [{ uuid }] = await query(
      api.db,
      sql<{ uuid: string }>(`SELECT f.uuid FROM facilities f JOIN portfolios p ON p.uuid = f.portfolio_uuid WHERE p.portfolio_id = 'demo' LIMIT 1`),
    );
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
    expect(scheduled.body).toMatchObject({
      auctionStage: 'SCHEDULED',
      auctionScheduledOnDate: addDays(rental.today, 10),
      auctionEndDate: addDays(rental.today, 17),
    });
    expectProblem(await api.call('PATCH', rentalPath(rental, 'auction'), { body: { minimumBidInPennies: -1 } }), 400, ['minimumBidInPennies']);
    const updated = await api.call('PATCH', rentalPath(rental, 'auction'), { body: { minimumBidInPennies: 5000 } });
    expect(updated.body).toMatchObject({ auctionUuid: scheduled.body.auctionUuid, minimumBidAmount: [{ amountInPennies: 5000 }] });
    expect((await api.call('POST', rentalPath(rental, 'auction/cancel'))).body).toMatchObject({
      auctionStage: 'CANCELED',
      auctionCanceledOnDate: rental.today,
    });
    expectProblem(await api.call('POST', rentalPath(rental, 'auction/cancel')), 409);

    expect((await api.call('POST', rentalPath(rental, 'delinquency/pause'))).body).toMatchObject({ status: 'PAUSED', pausedFrom: 'AUCTION' });
    expectProblem(await api.call('POST', rentalPath(rental, 'delinquency/pause')), 409);
    expect((await api.call('POST', rentalPath(rental, 'delinquency/resume'))).body).toMatchObject({ status: 'AUCTION', pausedFrom: null });
    expect((await api.call('POST', rentalPath(rental, 'delinquency/writeOff'))).body).toMatchObject({ status: 'WRITTEN_OFF' });
    expectProblem(await api.call('POST', rentalPath(rental, 'delinquency/writeOff')), 409);

    const events = await query(api.db, sql<{ type: string; source: string }>(`SELECT type, source FROM outbox WHERE key = $1 AND source = 'api' ORDER BY id`), [
      rental.uuid,
    ]);
    expect(events.map((event) => event.type)).toEqual([
      'auction',
      'auction',
      'auction',
      'delinquency-status-change',
      'delinquency-status-change',
      'delinquency-status-change',
    ]);
  });

  it('completes the auction: 400 below the minimum bid, then the tenant is moved out as by the api move-out', async () => {
    const rental = await rentalInAuction({ withServicesAndCoverage: true });
    const movedOut = await owingRental({ withServicesAndCoverage: true });
    for (const each of [rental, movedOut]) {
      const before = await endedState(each);
      expect(before).toMatchObject({ status: 'ACTIVE', endDate: null, unitStatus: 'occupied', gateCodes: 1 });
      expect(Math.min(before.runningServices, before.runningCoverages)).toBeGreaterThan(0);
    }
    await api.call('POST', rentalPath(rental, 'auction/schedule'), { body: { scheduledOn: rental.today } });
    expectProblem(await api.call('POST', rentalPath(rental, 'auction/complete'), { body: { winningBidInPennies: 1.5 } }), 400, ['winningBidInPennies']);
    expectProblem(await api.call('POST', rentalPath(rental, 'auction/complete'), { body: { winningBidInPennies: 1 } }), 400, ['winningBidInPennies']);
    const completed = await api.call('POST', rentalPath(rental, 'auction/complete'), { body: { winningBidInPennies: 20000 } });
    expect(completed.status).toBe(200);
    expect(completed.body).toMatchObject({ auctionStage: 'COMPLETED', winningBidAmount: [{ amountInPennies: 20000 }] });
    const [row] = await query(api.db, sql('SELECT balance_in_pennies FROM rental_records WHERE uuid = $1'), [rental.uuid]);
    expect(row).toEqual({ balance_in_pennies: 0 });
    expectProblem(await api.call('POST', rentalPath(rental, 'delinquency/pause')), 409);
    expect((await api.call('POST', rentalPath(movedOut, 'moveOut'))).status).toBe(200);

    // Both ways out end the rental alike: services, coverage and gate code gone, the event listing no service.
    const ended = { status: 'MOVED_OUT', unitStatus: 'vacant', runningServices: 0, runningCoverages: 0, gateCodes: 0 };
    for (const each of [rental, movedOut]) {
      expect(await endedState(each)).toEqual({ ...ended, endDate: each.today });
      const event = await movedOutEvent(each);
      expect(event.payload.unitRental).toMatchObject({ rentalRecordUuid: each.uuid, endRentDate: each.today });
      expect(event.payload.billingTemplate.additionalServicesAndFees).toEqual([]);
    }
  });

  it('answers 404 for a rental of another facility or portfolio', async () => {
    const rental = await rentalInAuction();
    const [{ uuid: otherFacility }] = await query(api.db, sql<{ uuid: string }>('SELECT uuid FROM facilities WHERE uuid <> $1 LIMIT 1'), [rental.facility]);
    expectProblem(await api.call('POST', `${base}/facilities/${otherFacility}/rentalRecords/${rental.uuid}/delinquency/pause`), 404);
    expectProblem(await api.call('POST', rentalPath(rental, 'delinquency/pause'), { key: api.keys.other }), 404);
  });
});

describe('the gate code while it is suspended', () => {
  it('answers SUSPENDED in operations 14 and 3 and on the lease page from OVERLOCK until a payment clears the balance, then the code again', async () => {
    // The demo's converted lead (operation 3) signed its lease (the page of this token) for this rental.
    const [lead] = await query(api.db, sql<{ rental: string }>('SELECT converted_rental_record_uuid AS rental FROM leads WHERE uuid = $1'), [id('lead:4')]);
    const rental = await owingRental({ uuid: lead.rental });
    const [{ code }] = await query(api.db, sql('SELECT code FROM gate_codes WHERE rental_record_uuid = $1'), [rental.uuid]);
    const gateCode = () => api.call('GET', rentalPath(rental, 'gateAccessCode'), { key: api.keys.read });
    /** The gate code as operation 14, operation 3 and the signed lease page show it. */
    const shownEverywhere = async (): Promise<string[]> => {
      const operation14: string = (await gateCode()).body;
      const operation3: string = (await api.call('GET', `/shopping/demo/v1/facilities/tenant/${id('lead:4')}`, { key: api.keys.read })).body.gateAccessNumber;
      const page = await api.call('GET', '/leases/sign/demo-signed-lease-4', { key: null });
      const onPage = /<th scope="row">Gate access code<\/th><td>([^<]*)<\/td>/.exec(page.text)?.[1] ?? 'not on the page';
      return [operation14, operation3, onPage];
    };
    expect(await shownEverywhere()).toEqual([code, code, code]);

    // Day 10 past due: OVERDUE (with the $20 late fee), then OVERLOCK, which suspends the code.
    await pastDue(rental, 10);
    const [state] = await query(api.db, sql<{ status: string }>('SELECT status FROM delinquencies WHERE rental_record_uuid = $1'), [rental.uuid]);
    expect(state.status).toBe('OVERLOCK');
    const suspended = await gateCode();
    expect(suspended.status).toBe(200);
    expect(suspended.headers['content-type']).toMatch(/^application\/json/);
    expect(await shownEverywhere()).toEqual(['SUSPENDED', 'SUSPENDED', 'SUSPENDED']);

    // The payment through the api, and its billing fact handled as the scheduler's payments consumer does.
    expect((await api.call('POST', rentalPath(rental, 'payments'), { body: { amountInPennies: 11000 } })).status).toBe(200);
    const [fact] = await query(api.db, sql<{ envelope: unknown }>(`SELECT envelope FROM outbox WHERE topic = $1 AND key = $2 AND type = 'payment-recorded'`), [
      BILLING_TOPIC,
      rental.uuid,
    ]);
    const payment = parseEnvelope(fact.envelope);
    if (payment.type !== 'payment-recorded') throw new Error(`expected payment-recorded, got ${payment.type}`);
    expect(payment.payload.balanceAfterInPennies).toBe(0);
    await api.db.transaction((manager) => delinquency.resolvePayment(manager, payment.payload));
    const [paid] = await query(api.db, sql<{ status: string }>('SELECT status FROM delinquencies WHERE rental_record_uuid = $1'), [rental.uuid]);
    expect(paid.status).toBe('PAID');
    expect(await shownEverywhere()).toEqual([code, code, code]);
  });
});

/*
 * A tenant who moved out owing money (the last month, a late fee) settles it afterwards: the operator records the
 * payment on the ended rental. The money goes through its ledger and its billing fact as any payment; the
 * delinquency, which no longer advances after the move-out, is resolved by it as for an active rental.
 */
describe('a tenant who moved out owing money', () => {
  it('pays the balance: the payment is recorded, its fact resolves the delinquency to PAID, the rental stays ended', async () => {
    const rental = await owingRental();
    await pastDue(rental, 10);
    expect((await api.call('POST', rentalPath(rental, 'moveOut'))).status).toBe(200);
    const [{ owed }] = await query(api.db, sql<{ owed: number }>('SELECT balance_in_pennies AS owed FROM rental_records WHERE uuid = $1'), [rental.uuid]);
    expect(owed).toBe(11000);

    const paid = await api.call('POST', rentalPath(rental, 'payments'), { body: { amountInPennies: owed } });
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ rentalRecordUuid: rental.uuid, amountInPennies: owed, balanceInPennies: 0, paidOn: rental.today });
    const ledger = await api.call('GET', rentalPath(rental, 'ledger'));
    expect(ledger.body.balanceInPennies).toBe(0);
    expect((ledger.body.entries as unknown[]).at(-1)).toMatchObject({ kind: 'PAYMENT', amountInPennies: -owed, balanceAfterInPennies: 0 });

    const [fact] = await query(api.db, sql<{ envelope: unknown }>(`SELECT envelope FROM outbox WHERE topic = $1 AND key = $2 AND type = 'payment-recorded'`), [
      BILLING_TOPIC,
      rental.uuid,
    ]);
    const payment = parseEnvelope(fact.envelope);
    if (payment.type !== 'payment-recorded') throw new Error(`expected payment-recorded, got ${payment.type}`);
    await api.db.transaction((manager) => delinquency.resolvePayment(manager, payment.payload));
    const [state] = await query(api.db, sql<{ status: string }>('SELECT status FROM delinquencies WHERE rental_record_uuid = $1'), [rental.uuid]);
    expect(state.status).toBe('PAID');
    expect(await endedState(rental)).toMatchObject({ status: 'MOVED_OUT', unitStatus: 'vacant', gateCodes: 0 });
  });
});

describe('transfer of a delinquent rental', () => {
  const RENTAL_DELINQUENT = 'tag:storage-rental,2026:problems/rental-delinquent';

  const vacantUnitOf = async (rental: Rental): Promise<string> => {
    const [unit] = await query(api.db, sql<{ uuid: string }>(`SELECT uuid FROM units WHERE facility_uuid = $1 AND status = 'vacant' ORDER BY uuid LIMIT 1`), [
      rental.facility,
    ]);
    return unit.uuid;
  };

  interface TransferState {
    status: string;
    unitUuid: string;
    delinquency: string | null;
    suspended: boolean;
    gateCodes: number;
    balance: number;
    transferEvents: number;
  }

  /** What a transfer would change: the rental's status, unit, delinquency, gate code and balance, and its transfer events. */
  const transferState = async (rentalUuid: string): Promise<TransferState> => {
    const [state] = await query(
      api.db,
      sql<TransferState>(`SELECT r.status, r.unit_uuid AS "unitUuid", r.balance_in_pennies AS balance,
              (SELECT d.status::text FROM delinquencies d WHERE d.rental_record_uuid = r.uuid) AS delinquency,
              EXISTS (SELECT 1 FROM gate_code_suspensions s WHERE s.rental_record_uuid = r.uuid) AS suspended,
              (SELECT count(*)::int FROM gate_codes g WHERE g.rental_record_uuid = r.uuid) AS "gateCodes",
              (SELECT count(*)::int FROM outbox o JOIN rental_records n ON n.uuid::text = o.key
                WHERE o.type = 'transfer' AND n.person_uuid = r.person_uuid) AS "transferEvents"
         FROM rental_records r WHERE r.uuid = $1`),
      [rentalUuid],
    );
    return state;
  };

  it('is refused with a problem naming the reason from OVERDUE to AUCTION and while PAUSED, changing nothing; once PAID it moves the tenant with a working gate code', async () => {
    const transfer = (rental: Rental, newUnitUuid: string) => api.call('POST', rentalPath(rental, 'transfer'), { body: { newUnitUuid } });
    const expectRefused = async (rental: Rental, status: string): Promise<void> => {
      const before = await transferState(rental.uuid);
      expect(before.delinquency).toBe(status);
      const target = await vacantUnitOf(rental);
      const reply = await transfer(rental, target);
      expectProblem(reply, 409);
      expect(reply.body).toMatchObject({ type: RENTAL_DELINQUENT, title: 'Rental is delinquent', detail: expect.stringContaining(status) });
      expect(await transferState(rental.uuid)).toEqual(before);
      const [unit] = await query(api.db, sql<{ status: string }>('SELECT status FROM units WHERE uuid = $1'), [target]);
      expect(unit.status).toBe('vacant');
    };

    let rental: Rental | undefined;
    for (const [days, status] of [
      [6, 'OVERDUE'],
      [10, 'OVERLOCK'],
      [30, 'LIEN'],
      [61, 'AUCTION'],
    ] as const) {
      rental = await owingRental();
      await pastDue(rental, days);
      await expectRefused(rental, status);
    }
    if (rental === undefined) throw new Error('no rental was brought to AUCTION');
    expect(await transferState(rental.uuid)).toMatchObject({ suspended: true, transferEvents: 0 });
    expect((await api.call('POST', rentalPath(rental, 'delinquency/pause'))).status).toBe(200);
    await expectRefused(rental, 'PAUSED');
    expect((await api.call('POST', rentalPath(rental, 'delinquency/resume'))).status).toBe(200);

    // Paid in full, as the scheduler's payments consumer resolves it: PAID, the gate code restored.
    const { balance } = await transferState(rental.uuid);
    expect((await api.call('POST', rentalPath(rental, 'payments'), { body: { amountInPennies: balance } })).status).toBe(200);
    const [fact] = await query(api.db, sql<{ envelope: unknown }>(`SELECT envelope FROM outbox WHERE topic = $1 AND key = $2 AND type = 'payment-recorded'`), [
      BILLING_TOPIC,
      rental.uuid,
    ]);
    const payment = parseEnvelope(fact.envelope);
    if (payment.type !== 'payment-recorded') throw new Error(`expected payment-recorded, got ${payment.type}`);
    await api.db.transaction((manager) => delinquency.resolvePayment(manager, payment.payload));

    const target = await vacantUnitOf(rental);
    const moved = await transfer(rental, target);
    expect(moved.status).toBe(200);
    const newRental = moved.body.rentalRecordUuid as string;
    expect(await transferState(rental.uuid)).toMatchObject({ status: 'MOVED_OUT', delinquency: 'PAID', suspended: false, gateCodes: 0 });
    expect(await transferState(newRental)).toEqual({
      status: 'ACTIVE',
      unitUuid: target,
      delinquency: null,
      suspended: false,
      gateCodes: 1,
      balance: 0,
      transferEvents: 1,
    });
  });

  it('moves a balance still within its grace days, due when it was: no obstacle', async () => {
    const rental = await owingRental();
    const target = await vacantUnitOf(rental);
    const moved = await api.call('POST', rentalPath(rental, 'transfer'), { body: { newUnitUuid: target } });
    expect(moved.status).toBe(200);
    const newRental = moved.body.rentalRecordUuid as string;
    expect(await transferState(newRental)).toMatchObject({ status: 'ACTIVE', delinquency: null, suspended: false, gateCodes: 1, balance: 9000 });
    const [{ oldestDue }] = await query(api.db, sql('SELECT oldest_open_due_on::text AS "oldestDue" FROM rental_records WHERE uuid = $1'), [newRental]);
    expect(oldestDue).toBe(rental.today);
  });
});
