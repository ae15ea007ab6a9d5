import { expectProblem, id } from '../support/test-api';
import { startLifecycleApi, type LifecycleApi } from '../support/lifecycle-api';
import { facilityToday, leadWithLease, LOCK_SERVICE, outboxCount, rentalOf, rentalPath, signingPath, vacantUnit } from '../support/lifecycle-flow';
import { query, sql } from '@storage/persistence';

let api: LifecycleApi;
let rental: string;
beforeAll(async () => {
  api = await startLifecycleApi();
  const lead = await leadWithLease(api, id('unit-group:downtown:5x10:1'), { firstName: 'Gus', lastName: 'Wrong' });
  await api.postForm(signingPath(lead.link), { agree: 'yes' });
  rental = (await rentalOf(api.db, lead.leadUuid))!;
});
afterAll(async () => api.close());

/** Runs the calls and checks that none of them emitted anything about the rental, on any topic. */
async function emitsNothing(calls: () => Promise<void>): Promise<void> {
  const before = await outboxCount(api.db, [rental]);
  await calls();
  expect(await outboxCount(api.db, [rental])).toBe(before);
}

describe('rental operations refuse bad input with problem+json and emit nothing', () => {
  it('payments: amounts must be positive whole pennies', async () => {
    const balance = async (): Promise<number> => {
      const [row] = await query(api.db, sql<{ balance: number }>('SELECT balance_in_pennies AS balance FROM rental_records WHERE uuid = $1'), [rental]);
      return row.balance;
    };
    // What signing charged stays owed: no refused payment takes anything off it.
    const owed = await balance();
    expect(owed).toBeGreaterThan(0);
    await emitsNothing(async () => {
      for (const amountInPennies of [-5, 0, 12.5, '100', null, 1e12]) {
        expectProblem(await api.call('POST', `${rentalPath(rental)}/payments`, { amountInPennies }), 400, ['amountInPennies']);
      }
      expectProblem(await api.call('POST', `${rentalPath(rental)}/payments`, {}), 400, ['amountInPennies']);
    });
    expect(await balance()).toBe(owed);
  });

  it('rent change: positive whole rent, a real date not in the past, a different amount', async () => {
    const today = await facilityToday(api.db);
    await emitsNothing(async () => {
      expectProblem(await api.call('POST', `${rentalPath(rental)}/rentChange`, { newRentInPennies: -1, effectiveDate: today }), 400, ['newRentInPennies']);
      expectProblem(await api.call('POST', `${rentalPath(rental)}/rentChange`, { newRentInPennies: 99.5, effectiveDate: today }), 400, ['newRentInPennies']);
      expectProblem(await api.call('POST', `${rentalPath(rental)}/rentChange`, { newRentInPennies: 9000, effectiveDate: '2025-02-30' }), 400, [
        'effectiveDate',
      ]);
      expectProblem(await api.call('POST', `${rentalPath(rental)}/rentChange`, { newRentInPennies: 9000, effectiveDate: '2000-01-01' }), 400, [
        'effectiveDate',
      ]);
      const [current] = await query(api.db, sql<{ rent: number }>('SELECT rent_in_pennies AS rent FROM rental_records WHERE uuid = $1'), [rental]);
      expectProblem(await api.call('POST', `${rentalPath(rental)}/rentChange`, { newRentInPennies: current.rent, effectiveDate: today }), 409);
    });
  });

  it('services: recurring services of the portfolio only, not twice, and only removable when present', async () => {
    await emitsNothing(async () => {
      expectProblem(await api.call('POST', `${rentalPath(rental)}/services`, { itemTypeUuid: id('item-type:none') }), 400, ['itemTypeUuid']);
      expectProblem(await api.call('POST', `${rentalPath(rental)}/services`, { itemTypeUuid: id('item-type:admin-fee') }), 400, ['itemTypeUuid']);
      expectProblem(await api.call('POST', `${rentalPath(rental)}/services`, { itemTypeUuid: 'lock' }), 400, ['itemTypeUuid']);
      expectProblem(await api.call('DELETE', `${rentalPath(rental)}/services/${LOCK_SERVICE.itemTypeUuid}`), 404);
      expectProblem(await api.call('DELETE', `${rentalPath(rental)}/services/nope`), 400, ['itemTypeUuid']);
    });
    expect((await api.call('POST', `${rentalPath(rental)}/services`, { itemTypeUuid: LOCK_SERVICE.itemTypeUuid })).status).toBe(200);
    await emitsNothing(async () => {
      expectProblem(await api.call('POST', `${rentalPath(rental)}/services`, { itemTypeUuid: LOCK_SERVICE.itemTypeUuid }), 409);
    });
  });

  it('transfer: the target must be a vacant unit of the same facility', async () => {
    const [occupied] = await query(api.db, sql<{ uuid: string }>(`SELECT uuid FROM units WHERE facility_uuid = $1 AND status = 'occupied' LIMIT 1`), [
      id('facility:downtown'),
    ]);
    const elsewhere = await vacantUnit(api.db, id('unit-group:lakeside:10x15:1'));
    const [own] = await query(api.db, sql<{ uuid: string }>('SELECT unit_uuid AS uuid FROM rental_records WHERE uuid = $1'), [rental]);
    await emitsNothing(async () => {
      expectProblem(await api.call('POST', `${rentalPath(rental)}/transfer`, { newUnitUuid: id('unit:none') }), 400, ['newUnitUuid']);
      expectProblem(await api.call('POST', `${rentalPath(rental)}/transfer`, { newUnitUuid: elsewhere }), 400, ['newUnitUuid']);
      expectProblem(await api.call('POST', `${rentalPath(rental)}/transfer`, { newUnitUuid: occupied.uuid }), 409);
      expectProblem(await api.call('POST', `${rentalPath(rental)}/transfer`, { newUnitUuid: own.uuid }), 409);
      expectProblem(await api.call('POST', `${rentalPath(rental)}/transfer`, {}), 400, ['newUnitUuid']);
    });
  });

  it('unknown rentals, rentals of another facility and malformed ids are refused', async () => {
    await emitsNothing(async () => {
      expectProblem(await api.call('POST', `${rentalPath(rental, id('facility:lakeside'))}/moveOut`), 404);
      expectProblem(await api.call('POST', `${rentalPath(rental, id('facility:lakeside'))}/payments`, { amountInPennies: 100 }), 404);
      expectProblem(await api.call('POST', `${rentalPath(id('rental:none'))}/moveOut`), 404);
      expectProblem(await api.call('POST', `${rentalPath('not-a-uuid')}/moveOut`), 400, ['unitRentalRecordUuid']);
      expectProblem(await api.call('POST', `/api/other/portfolios/v1/facilities/${id('facility:downtown')}/rentalRecords/${rental}/moveOut`), 404);
    });
  });

  it('a moved-out rental refuses every further action but a payment with 409', async () => {
    expect((await api.call('POST', `${rentalPath(rental)}/moveOut`)).status).toBe(200);
    const today = await facilityToday(api.db);
    const unit = await vacantUnit(api.db, id('unit-group:downtown:5x5:1'));
    await emitsNothing(async () => {
      expectProblem(await api.call('POST', `${rentalPath(rental)}/moveOut`), 409);
      expectProblem(await api.call('POST', `${rentalPath(rental)}/rentChange`, { newRentInPennies: 100, effectiveDate: today }), 409);
      expectProblem(await api.call('POST', `${rentalPath(rental)}/services`, { itemTypeUuid: id('item-type:trash') }), 409);
      expectProblem(await api.call('DELETE', `${rentalPath(rental)}/services/${LOCK_SERVICE.itemTypeUuid}`), 409);
      expectProblem(await api.call('POST', `${rentalPath(rental)}/transfer`, { newUnitUuid: unit }), 409);
    });
    const gate = await api.call('GET', `/api/demo/portfolios/v1/facilities/${id('facility:downtown')}/rentalRecords/${rental}/gateAccessCode`);
    expectProblem(gate, 404);
  });
});
