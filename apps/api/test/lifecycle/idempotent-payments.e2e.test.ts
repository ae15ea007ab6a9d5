import { HttpException } from '@nestjs/common';
import { query, sql } from '@storage/persistence';
import { eventually, sessionsWaitingForLocks } from '@storage/testing';
import { PaymentsService } from '../../src/rentals/use-cases/payment';
import type { RentalPath } from '../../src/rentals/rental-lock';
import type { Reply } from '../support/test-api';
import { startLifecycleApi, type LifecycleApi } from '../support/lifecycle-api';
import { DOWNTOWN, leadWithLease, rentalOf, rentalPath, signingPath } from '../support/lifecycle-flow';

let api: LifecycleApi;
beforeAll(async () => {
  api = await startLifecycleApi();
});
afterAll(async () => api.close());

/*
 * A client that sent a payment and got no answer (a time-out, a dropped connection) cannot know whether it was
 * recorded; it sends it again with the same `Idempotency-Key`. The payment must be recorded once, whatever the
 * interleaving, and every answer must be the first one's.
 */
describe('a payment sent again with its Idempotency-Key', () => {
  it('is recorded once, and the retry answers what the first did', async () => {
    const rental = await newRental('Ida', 'Again');
    const first = await pay(rental, 1_500, 'call-centre-0001');
    const retry = await pay(rental, 1_500, 'call-centre-0001');
    expect(first.status).toBe(200);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await paymentsOf(rental)).toEqual([1_500]);
    expect(await paymentFactsOf(rental)).toBe(1);
  });

  it('is recorded once when copies reach three replicas together, forced to meet at the rental', async () => {
    const rental = await newRental('Ivo', 'Twice');
    // Two more replicas of the api's payments, with their own batches and turns, on the same database.
    const replicas = [new PaymentsService(api.db), new PaymentsService(api.db)];
    const ref = await refOf(rental);
    const [reply, ...answers] = await whileRentalsAreHeld([rental], 3, () =>
      Promise.all([pay(rental, 700, 'terminal-7:42'), ...replicas.map((replica) => replica.record(ref, 700, 'terminal-7:42'))]),
    );
    expect(reply.status).toBe(200);
    const all = [{ payment: reply.body, replayed: reply.headers['idempotent-replayed'] === 'true' }, ...answers];
    expect(all.filter((answer) => !answer.replayed)).toHaveLength(1);
    for (const answer of all) expect(answer.payment).toEqual(reply.body);
    expect(await paymentsOf(rental)).toEqual([700]);
    expect(await paymentFactsOf(rental)).toBe(1);
  });

  it('answers what it did even after the rental moved out', async () => {
    const rental = await newRental('Mo', 'Later');
    const first = await pay(rental, 900, 'before-move-out');
    expect((await api.call('POST', `${rentalPath(rental)}/moveOut`)).status).toBe(200);
    const retry = await pay(rental, 900, 'before-move-out');
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    // A new key is a new payment, which a moved-out rental takes too (what is owed outlives the rental).
    const after = await pay(rental, 900, 'after-move-out');
    expect(after.status).toBe(200);
    expect(after.body.paymentUuid).not.toBe(first.body.paymentUuid);
    expect(await paymentsOf(rental)).toEqual([900, 900]);
  });

  it('refuses the key for a different payment: another amount, or another rental even at the same moment', async () => {
    const rental = await newRental('Kay', 'Reuse');
    const other = await newRental('Ott', 'Reuse');
    expect((await pay(rental, 1_000, 'reused-key')).status).toBe(200);
    const otherAmount = await pay(rental, 1_001, 'reused-key');
    expect(otherAmount.status).toBe(422);
    expect(otherAmount.headers['content-type']).toContain('application/problem+json');
    expect((await pay(other, 1_000, 'reused-key')).status).toBe(422);

    // Both rentals held, so both requests find no payment of the key and race to write it: one wins, one is refused,
    // whether they are batched by one replica or written by two.
    const racing = await whileRentalsAreHeld([rental, other], 2, () => Promise.all([pay(rental, 300, 'racing-key'), pay(other, 300, 'racing-key')]));
    expect(racing.map((reply) => reply.status).sort()).toEqual([200, 422]);
    const replica = new PaymentsService(api.db);
    const otherRef = await refOf(other);
    const [reply, answer] = await whileRentalsAreHeld([rental, other], 2, () =>
      Promise.all([pay(rental, 400, 'racing-replicas'), replica.record(otherRef, 400, 'racing-replicas').then(() => 200, statusOf)]),
    );
    expect([reply.status, answer].sort()).toEqual([200, 422]);
    const payments = [...(await paymentsOf(rental)), ...(await paymentsOf(other))];
    expect(payments.filter((amount) => amount === 300)).toHaveLength(1);
    expect(payments.filter((amount) => amount === 400)).toHaveLength(1);
  });

  it('refuses a key that is empty, too long or not printable ASCII, and records nothing', async () => {
    const rental = await newRental('Val', 'Idate');
    for (const key of ['', 'x'.repeat(256), 'tab\tkey', 'clé']) {
      const reply = await api.call('POST', `${rentalPath(rental)}/payments`, { amountInPennies: 100 }, { 'idempotency-key': key });
      expect([reply.status, key]).toEqual([400, key]);
      expect(reply.body).toMatchObject({ errors: [{ field: 'Idempotency-Key' }] });
    }
    expect(await paymentsOf(rental)).toEqual([]);
  });

  it('without a key, every request is a payment of its own', async () => {
    const rental = await newRental('Nok', 'Ey');
    await api.call('POST', `${rentalPath(rental)}/payments`, { amountInPennies: 200 });
    await api.call('POST', `${rentalPath(rental)}/payments`, { amountInPennies: 200 });
    expect(await paymentsOf(rental)).toEqual([200, 200]);
  });
});

/** A new tenant's rental, in the downtown unit group with the most vacant units. */
async function newRental(firstName: string, lastName: string): Promise<string> {
  const [{ unitGroupUuid }] = await query(
    api.db,
    sql<{ unitGroupUuid: string }>(
      `SELECT unit_group_uuid AS "unitGroupUuid" FROM units WHERE facility_uuid = $1 AND status = 'vacant' GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1`,
    ),
    [DOWNTOWN],
  );
  const lead = await leadWithLease(api, unitGroupUuid, { firstName, lastName });
  await api.postForm(signingPath(lead.link), { agree: 'yes' });
  return (await rentalOf(api.db, lead.leadUuid))!;
}

const pay = (rental: string, amountInPennies: number, key: string): Promise<Reply> =>
  api.call('POST', `${rentalPath(rental)}/payments`, { amountInPennies }, { 'idempotency-key': key });

/** The rental's PAYMENT entries in its ledger, oldest first. */
async function paymentsOf(rental: string): Promise<number[]> {
  const rows = await query(
    api.db,
    sql<{ amount: number }>(`SELECT -amount_in_pennies AS amount FROM rental_ledger_entries WHERE rental_record_uuid = $1 AND kind = 'PAYMENT' ORDER BY seq`),
    [rental],
  );
  return rows.map((row) => row.amount);
}

async function paymentFactsOf(rental: string): Promise<number> {
  const [{ facts }] = await query(api.db, sql<{ facts: number }>(`SELECT count(*)::int AS facts FROM outbox WHERE key = $1 AND type = 'payment-recorded'`), [
    rental,
  ]);
  return facts;
}

/** The path's view of a rental, as the controller gives it to the payments. */
async function refOf(rental: string): Promise<RentalPath> {
  const [row] = await query(
    api.db,
    sql<RentalPath>(
      `SELECT r.portfolio_uuid AS "portfolioUuid", p.portfolio_id AS "portfolioId", r.facility_uuid AS "facilityUuid", r.uuid AS "rentalRecordUuid"
         FROM rental_records r JOIN portfolios p ON p.uuid = r.portfolio_uuid WHERE r.uuid = $1`,
    ),
    [rental],
  );
  return row;
}

const statusOf = (error: unknown): number => (error instanceof HttpException ? error.getStatus() : 500);

/**
 * Holds the rentals' rows in another transaction while `act` runs, and lets them go once its requests have all
 * answered or `waiting` of them wait for a lock: requests that meet at the rental are forced to.
 */
async function whileRentalsAreHeld<T>(rentals: string[], waiting: number, act: () => Promise<T>): Promise<T> {
  const holder = api.db.createQueryRunner();
  await holder.connect();
  try {
    await holder.startTransaction();
    await query(holder.manager, sql('SELECT 1 FROM rental_records WHERE uuid = ANY($1::uuid[]) ORDER BY uuid FOR NO KEY UPDATE'), [rentals]);
    let answered = false;
    const acting = act().finally(() => (answered = true));
    await eventually(async () => expect(answered || (await sessionsWaitingForLocks(api.db)) >= waiting).toBe(true));
    await holder.commitTransaction();
    return await acting;
  } finally {
    await holder.release();
  }
}
