import { parseEnvelope, type EventEnvelope } from '@storage/domain';
import { startCpuBurner } from '@storage/testing';
import { VersionedWrites, type VersionedReadValues, type VersionedRow } from '../../src/rentals/versioned-writes';
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
 * rental is unchanged, batched with other requests), and queue on it when another writer came between. Fired all
 * at once on one rental, on a machine whose every core is busy with something else, every one succeeds; every rent
 * change must still report the rent it replaced and the balance the payments before it left, every payment the
 * balance it leaves, as if they had run one after the other, and each rent change's event must come after the
 * previous one.
 */
describe('rent changes and payments racing on one rental', () => {
  it('each answers once, and the events chain as a serial history would, on a loaded machine', async () => {
    const today = await facilityToday(api.db);
    const [{ rent: initialRent }] = await query(api.db, sql<{ rent: number }>('SELECT rent_in_pennies AS rent FROM rental_records WHERE uuid = $1'), [rental]);
    const rents = Array.from({ length: 34 }, (_, index) => initialRent + 100 * (index + 1));
    const payments = Array.from({ length: 16 }, (_, index) => 10 * (index + 1));
    const burner = startCpuBurner();
    const replies = await Promise.all([
      ...rents.map((newRentInPennies) => api.call('POST', `${rentalPath(rental)}/rentChange`, { newRentInPennies, effectiveDate: today })),
      ...payments.map((amountInPennies) => api.call('POST', `${rentalPath(rental)}/payments`, { amountInPennies })),
    ]).finally(() => burner.stop());
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

/*
 * The interleaving that made a write give up: another writer changes the rental between every read and write.
 * Forced here by a read that reports a version the row never has, unless the read runs under the rental's lock
 * (in a transaction that has locked a row, hence has a transaction id): the write must then queue on the lock,
 * not race again and give up.
 */
describe('a write whose rental another writer keeps changing', () => {
  const STALE_UNLESS_LOCKED = sql<VersionedRow, VersionedReadValues>(
    `SELECT k.ord::int AS ord, r.status,
            CASE WHEN txid_current_if_assigned() IS NULL THEN '1' ELSE r.xmin::text END AS version
       FROM unnest($1::uuid[], $2::uuid[], $3::uuid[]) WITH ORDINALITY AS k(uuid, facility_uuid, portfolio_uuid, ord)
       JOIN rental_records r ON r.uuid = k.uuid AND r.facility_uuid = k.facility_uuid AND r.portfolio_uuid = k.portfolio_uuid`,
  );
  const TOUCH = sql<{ uuid: string }, [rentalRecordUuids: string[], versions: string[]]>(
    `-- owner-bypass: a write of no business meaning, so the test sees only how VersionedWrites places it
     UPDATE rental_records r SET updated_at = now() FROM unnest($1::uuid[], $2::text[]) AS i(uuid, version)
      WHERE r.uuid = i.uuid AND r.xmin = i.version::xid RETURNING r.uuid::text AS uuid`,
  );

  it('queues on the rental and is written, each of many at once', async () => {
    const writes = new VersionedWrites<VersionedRow, { rentalRecordUuid: string; version: string }>(api.db, {
      read: STALE_UNLESS_LOCKED,
      write: async (db, batch) => {
        const touched = await query(db, TOUCH, [batch.map((write) => write.rentalRecordUuid), batch.map((write) => write.version)]);
        return touched.map((row) => row.uuid);
      },
    });
    const [{ portfolioUuid, facilityUuid, before }] = await query(
      api.db,
      sql<{ portfolioUuid: string; facilityUuid: string; before: string }>(
        'SELECT portfolio_uuid AS "portfolioUuid", facility_uuid AS "facilityUuid", updated_at::text AS before FROM rental_records WHERE uuid = $1',
      ),
      [rental],
    );
    const ref = { portfolioUuid, portfolioId: 'demo', facilityUuid, rentalRecordUuid: rental };
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, index) => writes.apply(ref, (row) => ({ write: { rentalRecordUuid: rental, version: row.version }, result: index }))),
    );
    expect(results).toEqual(Array.from({ length: 20 }, (_, index) => index));
    const [{ after }] = await query(api.db, sql<{ after: string }>('SELECT updated_at::text AS after FROM rental_records WHERE uuid = $1'), [rental]);
    expect(after > before).toBe(true);
  });
});
