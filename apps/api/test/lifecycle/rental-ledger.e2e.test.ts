import { balanceOf, openCharges } from '@storage/domain';
import { asLedgerLines, ledgerEntries } from '@storage/rental-ledger';
import { expectProblem, id } from '../support/test-api';
import { startLifecycleApi, type LifecycleApi } from '../support/lifecycle-api';
import { facilityToday, leadWithLease, rentalOf, rentalPath, signingPath, vacantUnit } from '../support/lifecycle-flow';
import { owe } from '../support/ledger';
import { query, sql } from '@storage/persistence';

interface LedgerPage {
  entries: { kind: string; position: string; amountInPennies: number; balanceAfterInPennies: number }[];
  nextPageAfter: string | null;
}

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
  const [row] = await query(api.db, sql<{ balance: number }>('SELECT balance_in_pennies AS balance FROM rental_records WHERE uuid = $1'), [rental]);
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
    expect(entries.at(-1)).toMatchObject({
      kind: 'PAYMENT',
      amountInPennies: -5_000,
      paymentUuid: paid.body.paymentUuid,
      postedOn: paid.body.paidOn,
      dueOn: null,
    });
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

describe('the ledger route', () => {
  it("answers the rental's entries oldest first, each with the balance it left, paged", async () => {
    const rental = await newTenant('Reader');
    const today = await facilityToday(api.db);
    await owe(api.db, rental, 10_000, today);
    for (const amountInPennies of [1_000, 2_000, 3_000])
      expect((await api.call('POST', `${rentalPath(rental)}/payments`, { amountInPennies })).status).toBe(200);

    const first = await api.call('GET', `${rentalPath(rental)}/ledger?limit=3`);
    expect(first.status).toBe(200);
    const page = first.body as LedgerPage;
    const [{ nextDueDate }] = await query(
      api.db,
      sql<{ nextDueDate: string }>('SELECT next_due_date::text AS "nextDueDate" FROM rental_records WHERE uuid = $1'),
      [rental],
    );
    expect(page).toMatchObject({ rentalRecordUuid: rental, balanceInPennies: 4_000, nextDueDate });
    expect(page.entries.map((e) => [e.kind, e.amountInPennies, e.balanceAfterInPennies])).toEqual([
      ['RENT', 10_000, 10_000],
      ['PAYMENT', -1_000, 9_000],
      ['PAYMENT', -2_000, 7_000],
    ]);
    expect(page.entries[0]).toMatchObject({ description: 'Rent', postedOn: today, dueOn: today, servicePeriod: null, appliesToEntryUuid: null });
    expect(page.nextPageAfter).toBe(page.entries[2].position);

    const rest = (await api.call('GET', `${rentalPath(rental)}/ledger?limit=3&after=${page.nextPageAfter}`)).body as LedgerPage;
    expect(rest.entries.map((e) => [e.amountInPennies, e.balanceAfterInPennies])).toEqual([[-3_000, 4_000]]);
    expect(rest.nextPageAfter).toBeNull();
  });

  it("refuses a bad page with problem+json, and another facility's path with 404", async () => {
    const rental = await newTenant('Pager');
    for (const query of ['limit=0', 'limit=501', 'limit=ten', 'limit=050', 'limit=+5', 'after=-1', 'after=1.5']) {
      expectProblem(await api.call('GET', `${rentalPath(rental)}/ledger?${query}`), 400, [query.split('=')[0]]);
    }
    expectProblem(await api.call('GET', `${rentalPath(rental, id('facility:lakeside'))}/ledger`), 404);
  });
});
