import { BILLING_TOPIC, parseEnvelope } from '@storage/domain';
import { startLifecycleApi, type LifecycleApi } from '../support/lifecycle-api';
import { outboxLifecycleEvents } from '../support/lifecycle-flow';
import { expectWalkEvents, walkLifecycle } from '../support/lifecycle-walk';
import { query, sql } from '@storage/persistence';

let api: LifecycleApi;
beforeAll(async () => {
  api = await startLifecycleApi();
});
afterAll(async () => api.close());

describe('rental lifecycle, embedded transport (the outbox is the log)', () => {
  it('walks a lead from creation to move-out, each step emitting its event once, in order', async () => {
    const walk = await walkLifecycle(api);
    expectWalkEvents(await outboxLifecycleEvents(api.db, walk.rentals), walk);

    const facts = await query(api.db, sql<{ envelope: unknown }>('SELECT envelope FROM outbox WHERE topic = $1 AND key = ANY($2::text[]) ORDER BY id'), [
      BILLING_TOPIC,
      walk.rentals,
    ]);
    expect(facts.map((fact) => parseEnvelope(fact.envelope))).toEqual([
      expect.objectContaining({ type: 'charge-posted', key: walk.payment.rentalRecordUuid, portfolio: 'demo' }),
      expect.objectContaining({ type: 'charge-posted', key: walk.payment.rentalRecordUuid, portfolio: 'demo' }),
      expect.objectContaining({
        type: 'payment-recorded',
        key: walk.payment.rentalRecordUuid,
        portfolio: 'demo',
        payload: { ...walk.payment, amountInPennies: 5000, balanceAfterInPennies: walk.moveInInPennies - 5000 },
      }),
    ]);
  }, 60_000);
});
