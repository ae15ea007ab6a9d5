import { expectProblem, id } from '../support/test-api';
import { startLifecycleApi, type LifecycleApi } from '../support/lifecycle-api';
import { leadWithLease, outboxCount, rentalOf, rentalPath, signingPath, vacantUnit } from '../support/lifecycle-flow';
import { query, sql } from '@storage/persistence';

let api: LifecycleApi;
let rental: string;
beforeAll(async () => {
  api = await startLifecycleApi();
  const lead = await leadWithLease(api, id('unit-group:downtown:5x10:1'), { firstName: 'Ada', lastName: 'Autopay' });
  await api.postForm(signingPath(lead.link), { agree: 'yes' });
  rental = (await rentalOf(api.db, lead.leadUuid))!;
});
afterAll(async () => api.close());

/** The rental's autopay as stored: the method and the flag generated from it. */
async function stored(rentalUuid: string): Promise<{ method: string | null; enabled: boolean }> {
  const [row] = await query(
    api.db,
    sql<{ method: string | null; enabled: boolean }>(
      'SELECT autopay_payment_method AS method, is_autopay_enabled AS enabled FROM rental_records WHERE uuid = $1',
    ),
    [rentalUuid],
  );
  return row;
}

describe('autopay routes', () => {
  it('enable, replace and disable the payment method; is_autopay_enabled follows it; no event', async () => {
    const before = await outboxCount(api.db, [rental]);
    const enabled = await api.call('PUT', `${rentalPath(rental)}/autopay`, { paymentMethod: 'pm_card_visa' });
    expect(enabled.status).toBe(200);
    expect(enabled.body).toEqual({ rentalRecordUuid: rental, isAutopayEnabled: true, paymentMethod: 'pm_card_visa' });
    expect(await stored(rental)).toEqual({ method: 'pm_card_visa', enabled: true });

    const replaced = await api.call('PUT', `${rentalPath(rental)}/autopay`, { paymentMethod: 'pm_card_declined' });
    expect(replaced.body).toEqual({ rentalRecordUuid: rental, isAutopayEnabled: true, paymentMethod: 'pm_card_declined' });

    for (let i = 0; i < 2; i++) {
      const disabled = await api.call('DELETE', `${rentalPath(rental)}/autopay`);
      expect(disabled.status).toBe(200);
      expect(disabled.body).toEqual({ rentalRecordUuid: rental, isAutopayEnabled: false, paymentMethod: null });
      expect(await stored(rental)).toEqual({ method: null, enabled: false });
    }
    expect(await outboxCount(api.db, [rental])).toBe(before);
  });

  it('refuses a malformed payment method, and rentals it cannot reach, changing nothing', async () => {
    for (const paymentMethod of [undefined, '', 'pm', 'pm card visa', 42, null, 'x'.repeat(101), '4242424242424242\n']) {
      expectProblem(await api.call('PUT', `${rentalPath(rental)}/autopay`, { paymentMethod }), 400, ['paymentMethod']);
    }
    expectProblem(await api.call('PUT', `${rentalPath(rental, id('facility:lakeside'))}/autopay`, { paymentMethod: 'pm_card_visa' }), 404);
    expectProblem(await api.call('PUT', `${rentalPath(id('rental:none'))}/autopay`, { paymentMethod: 'pm_card_visa' }), 404);
    expectProblem(await api.call('DELETE', `${rentalPath(id('rental:none'))}/autopay`), 404);
    expectProblem(await api.call('DELETE', `${rentalPath('not-a-uuid')}/autopay`), 400, ['unitRentalRecordUuid']);
    expect(await stored(rental)).toEqual({ method: null, enabled: false });
  });

  it('a transfer keeps the autopay; a moved-out rental refuses both routes with 409', async () => {
    await api.call('PUT', `${rentalPath(rental)}/autopay`, { paymentMethod: 'pm_card_visa' });
    const transfer = await api.call('POST', `${rentalPath(rental)}/transfer`, { newUnitUuid: await vacantUnit(api.db, id('unit-group:downtown:5x5:1')) });
    expect(transfer.status).toBe(200);
    const moved = (transfer.body as { rentalRecordUuid: string }).rentalRecordUuid;
    expect(await stored(moved)).toEqual({ method: 'pm_card_visa', enabled: true });

    expectProblem(await api.call('PUT', `${rentalPath(rental)}/autopay`, { paymentMethod: 'pm_card_visa' }), 409);
    expect((await api.call('POST', `${rentalPath(moved)}/moveOut`)).status).toBe(200);
    expectProblem(await api.call('PUT', `${rentalPath(moved)}/autopay`, { paymentMethod: 'pm_card_visa' }), 409);
    expectProblem(await api.call('DELETE', `${rentalPath(moved)}/autopay`), 409);
  });
});
