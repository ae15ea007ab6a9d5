import { balanceOf, openCharges } from '@storage/domain';
import { asLedgerLines, ledgerEntries } from '@storage/rental-ledger';
import { id } from '../support/test-api';
import { startLifecycleApi, type LifecycleApi } from '../support/lifecycle-api';
import { facilityToday, leadWithLease, rentalOf, rentalPath, signingPath, vacantUnit } from '../support/lifecycle-flow';
import { owe } from '../support/ledger';

let api: LifecycleApi;
beforeAll(async () => {
  api = await startLifecycleApi();
});
afterAll(async () => api.close());

async function newTenant(lastName: string): Promise<string> {
  const lead = await leadWithLease(api, id('unit-group:downtown:5x10:1'), { firstName: 'Lena', lastName });
  await api.postForm(signingPath(lead.link), { agree: 'yes' });
  return (await rentalOf(api.db, lead.leadUuid))!;
}

async function balance(rental: string): Promise<number> {
  const [row]: { balance: number }[] = await api.db.query('SELECT balance_in_pennies AS balance FROM rental_records WHERE uuid = $1', [rental]);
  return row.balance;
}

describe("a rental's money goes through its ledger", () => {
  it('a payment is a ledger entry naming it, and the balance it reports is the sum of the entries', async () => {
    const rental = await newTenant('Payer');
    const today = await facilityToday(api.db);
    await owe(api.db, rental, 12_000, today);
    const paid = await api.call('POST', `${rentalPath(rental)}/payments`, { amountInPennies: 5_000 });
    expect(paid.status).toBe(200);
    const entries = await ledgerEntries(api.db.manager, rental);
    expect(entries.at(-1)).toMatchObject({ kind: 'PAYMENT', amountInPennies: -5_000, paymentUuid: paid.body.paymentUuid, postedOn: paid.body.paidOn, dueOn: null });
    expect(paid.body.balanceInPennies).toBe(7_000);
    expect(await balance(rental)).toBe(balanceOf(asLedgerLines(entries)));
  });

  it('a transfer carries the open charges to the new rental with their due dates and leaves the old one at zero', async () => {
    const rental = await newTenant('Mover');
    const today = await facilityToday(api.db);
    await owe(api.db, rental, 9_000, today);
    const moved = await api.call('POST', `${rentalPath(rental)}/transfer`, { newUnitUuid: await vacantUnit(api.db, id('unit-group:downtown:5x10:1')) });
    expect(moved.status).toBe(200);
    const newRental: string = moved.body.rentalRecordUuid;
    expect([await balance(rental), await balance(newRental)]).toEqual([0, 9_000]);
    const carried = await ledgerEntries(api.db.manager, newRental);
    expect(openCharges(asLedgerLines(carried))).toEqual([{ entryUuid: expect.any(String), dueOn: today, openInPennies: 9_000 }]);
    expect(carried.map((entry) => entry.kind)).toEqual(['TRANSFER_IN']);
    expect((await ledgerEntries(api.db.manager, rental)).at(-1)).toMatchObject({ kind: 'TRANSFER_OUT', amountInPennies: -9_000 });
  });
});
