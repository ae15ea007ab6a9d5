import { parseEnvelope, type EventEnvelope } from '@storage/domain';
import { id } from '../support/test-api';
import { startLifecycleApi, type LifecycleApi } from '../support/lifecycle-api';
import { facilityToday, leadWithLease, rentalOf, rentalPath, signingPath } from '../support/lifecycle-flow';
import { query, sql } from '@storage/persistence';

let api: LifecycleApi;
let rental: string;
beforeAll(async () => {
  api = await startLifecycleApi();
  const lead = await leadWithLease(api, id('unit-group:downtown:5x10:1'), { firstName: 'Rita', lastName: 'Race' });
  await api.postForm(signingPath(lead.link), { agree: 'yes' });
  rental = (await rentalOf(api.db, lead.leadUuid))!;
});
afterAll(async () => api.close());

/*
 * Rent changes and payments write without holding the rental's lock (read, then a write applied only if the
 * rental is unchanged, batched with other requests). Fired all at once on one rental, every rent change must
 * still report the rent it replaced and the balance the payments before it left, every payment the balance it
 * leaves, as if they had run one after the other, and each rent change's event must come after the previous one.
 */
describe('rent changes and payments racing on one rental', () => {
  it('each answers once, and the events chain as a serial history would', async () => {
    const today = await facilityToday(api.db);
    const [{ rent: initialRent }] = await query(api.db, sql<{ rent: number }>('SELECT rent_in_pennies AS rent FROM rental_records WHERE uuid = $1'), [rental]);
    const rents = Array.from({ length: 12 }, (_, index) => initialRent + 100 * (index + 1));
    const payments = Array.from({ length: 6 }, (_, index) => 10 * (index + 1));
    const replies = await Promise.all([
      ...rents.map((newRentInPennies) => api.call('POST', `${rentalPath(rental)}/rentChange`, { newRentInPennies, effectiveDate: today })),
      ...payments.map((amountInPennies) => api.call('POST', `${rentalPath(rental)}/payments`, { amountInPennies })),
    ]);
    expect(replies.map((reply) => reply.status)).toEqual(replies.map(() => 200));

    // Writes of one rental take turns on its row, so each takes its outbox position after the previous one committed.
    const rows = await query(api.db, sql<{ envelope: unknown }>('SELECT envelope FROM outbox WHERE key = $1 ORDER BY id'), [rental]);
    const all = rows.map((row) => parseEnvelope(row.envelope));
    // Signing charged the first period (its charge-posted facts come before moved-in): the races start from there.
    const moveIn = all.filter((event): event is EventEnvelope<'charge-posted'> => event.type === 'charge-posted');
    expect(moveIn.length).toBeGreaterThan(0);
    let balance = moveIn.at(-1)!.payload.balanceAfterInPennies;
    const events = all.filter((event) => event.type !== 'moved-in' && event.type !== 'charge-posted');
    let rent = initialRent;
    let lastEventAt = 0;
    for (const event of events) {
      if (event.type === 'payment-recorded') {
        expect(event.payload.balanceAfterInPennies).toBe(balance - event.payload.amountInPennies);
        balance = event.payload.balanceAfterInPennies;
        continue;
      }
      if (event.type !== 'rent-change') throw new Error(`unexpected ${event.type}`);
      expect(event.payload.rentChange.previousRentInPennies).toBe(rent);
      expect(event.payload.billingTemplate.currentRentInPennies).toBe(event.payload.rentChange.currentRentInPennies);
      expect(event.payload.unitRental.rentalBalance).toBe(balance);
      expect(new Date(event.occurredAt).getTime()).toBeGreaterThan(lastEventAt);
      rent = event.payload.rentChange.currentRentInPennies;
      lastEventAt = new Date(event.occurredAt).getTime();
    }
    expect(events.filter((event) => event.type === 'rent-change')).toHaveLength(rents.length);
    expect(events.filter((event) => event.type === 'payment-recorded')).toHaveLength(payments.length);
    const [stored] = await query(
      api.db,
      sql<{ rent: number; balance: number }>('SELECT rent_in_pennies AS rent, balance_in_pennies AS balance FROM rental_records WHERE uuid = $1'),
      [rental],
    );
    expect(stored).toEqual({ rent, balance });
  });
});
