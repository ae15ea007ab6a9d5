import { randomUUID } from 'node:crypto';
import { addDays, parseEnvelope, TENANT_LIFECYCLE_TOPIC, type EventEnvelope, type PublicEventType } from '@storage/domain';
import { query, sql } from '@storage/persistence';
import { postEntries, recordPayments } from '@storage/rental-ledger';
import { changeRents, importRentals } from '@storage/rentals';
import { eventually, sessionsWaitingForLocks } from '@storage/testing';
import { id } from '../support/test-api';
import { advanceDelinquency } from '../support/delinquency';
import { owe } from '../support/ledger';
import { startLifecycleApi, type LifecycleApi } from '../support/lifecycle-api';
import { facilityToday, leadWithLease, rentalOf, rentalPath, signingPath } from '../support/lifecycle-flow';

/** The unit groups the tests sign leases of: the second rentals go elsewhere. */
const LEASED_GROUPS = [id('unit-group:downtown:5x10:1'), id('unit-group:downtown:5x5:1')];

let api: LifecycleApi;
beforeAll(async () => {
  api = await startLifecycleApi();
});
afterAll(async () => api.close());

/*
 * Every lifecycle event shows the tenant's balance: the sum of all their rentals'. A writer of one rental must see
 * what a writer of the tenant's other rental commits while it works, or its event shows a balance the tenant never
 * had once both have committed (each of two such writers missing the other's change). The interleaving is forced:
 * another writer holds the sibling rental, with a late fee posted and not committed yet, while the api acts on the
 * first; the event must come out with the late fee in the tenant's balance.
 */
describe("a rental's event while the tenant's other rental is being written", () => {
  it('moving out waits for the other writer and shows its late fee', async () => {
    const { rental, sibling, personUuid } = await tenantWithTwoRentals('Mona', 'Moves');
    await whileSiblingIsWritten(sibling, () => api.call('POST', `${rentalPath(rental)}/moveOut`));
    const event = await latestEvent(rental, 'moved-out');
    expect(event.payload.tenantBalanceInPennies).toBe(await tenantBalance(personUuid, rental));
  });

  it('pausing delinquency waits for the other writer and shows its late fee', async () => {
    const { rental, sibling, personUuid } = await tenantWithTwoRentals('Pia', 'Pauses');
    const today = await facilityToday(api.db);
    await owe(api.db, rental, 9000, addDays(today, -6));
    await advanceDelinquency(api.db, rental, today);
    await whileSiblingIsWritten(sibling, () => api.call('POST', `${rentalPath(rental)}/delinquency/pause`));
    const event = await latestEvent(rental, 'delinquency-status-change');
    expect(event.payload.tenantBalanceInPennies).toBe(await tenantBalance(personUuid, rental));
  });

  it("a returning tenant's move-in waits for the writer of their rental and shows its late fee", async () => {
    const { rental, personUuid } = await tenantWithTwoRentals('Rhea', 'Returns');
    // Operation 2 gives a returning tenant a lead of their own after a mailed code; here a lead is pointed at them.
    const lead = await leadWithLease(api, LEASED_GROUPS[1], { firstName: 'Rhea', lastName: 'Returns' });
    await query(api.db, sql("UPDATE leads SET person_uuid = $2 WHERE uuid = $1 -- owner-bypass: a returning tenant's lead"), [lead.leadUuid, personUuid]);
    await whileSiblingIsWritten(rental, () => api.postForm(signingPath(lead.link), { agree: 'yes' }));
    const movedIn = (await rentalOf(api.db, lead.leadUuid))!;
    const event = await latestEvent(movedIn, 'moved-in');
    expect(event.payload.tenantBalanceInPennies).toBe(await tenantBalance(personUuid, movedIn));
  });
});

/*
 * The tenant lock takes several rentals, so every writer of several rentals must take them in the same order (uuid),
 * or two writers each hold one and wait for the other's. Forced: while a third transaction holds the lower rental,
 * a move-out queues for it first, then a batch write of the higher and the lower rental (as the api batches
 * concurrent payments and rent changes, in the order they came). Once the holder commits, the move-out takes the
 * lower rental and needs the higher one next. Before, the batch held the higher one: a deadlock, the move-out a 503.
 */
interface ReadRental {
  uuid: string;
  version: string;
  balance: number;
  rent: number;
}

const BATCH_WRITES: [string, (rentals: ReadRental[], today: string) => Promise<string[]>][] = [
  [
    'payments',
    (rentals, today) =>
      recordPayments(
        api.db,
        rentals.map((rental) => ({
          rentalRecordUuid: rental.uuid,
          portfolioId: 'demo',
          paymentUuid: randomUUID(),
          amountInPennies: 500,
          paidOn: today,
          version: rental.version,
          balanceInPennies: rental.balance,
        })),
        'test',
      ),
  ],
  [
    'rent changes',
    (rentals, today) => {
      // The outbox takes the envelope as it is: only the columns it is filed under matter to the lock order.
      const envelope = (rental: ReadRental) => ({ eventId: randomUUID(), key: rental.uuid, type: 'rent-change' }) as unknown as EventEnvelope;
      return changeRents(
        api.db,
        rentals.map((rental) => ({
          rentalRecordUuid: rental.uuid,
          rentInPennies: rental.rent + 100,
          previousRentInPennies: rental.rent,
          effectiveDate: today,
          occurredAt: new Date(),
          version: rental.version,
          envelope: envelope(rental),
        })),
        'test',
      );
    },
  ],
];

describe.each(BATCH_WRITES)("the tenant lock and a batch of %s of the tenant's rentals", (name, writeBatch) => {
  it('do not deadlock: the move-out and the batch both complete', async () => {
    const { rental, sibling } = await tenantWithTwoRentals('Dee', name === 'payments' ? 'Payer' : 'Changer');
    const [lower, higher] = [rental, sibling].sort();
    const read = await query(
      api.db,
      sql<ReadRental>(
        'SELECT uuid, xmin::text AS version, balance_in_pennies AS balance, rent_in_pennies AS rent FROM rental_records WHERE uuid = ANY($1::uuid[])',
      ),
      [[lower, higher]],
    );
    const inArrivalOrder = [higher, lower].map((uuid) => read.find((row) => row.uuid === uuid)!);
    const today = await facilityToday(api.db);
    const holder = api.db.createQueryRunner();
    await holder.connect();
    try {
      await holder.startTransaction();
      await query(holder.manager, sql('SELECT 1 FROM rental_records WHERE uuid = $1 FOR NO KEY UPDATE'), [lower]);
      const movingOut = api.call('POST', `${rentalPath(lower)}/moveOut`);
      await eventually(async () => expect(await sessionsWaitingForLocks(api.db)).toBe(1));
      const writing = writeBatch(inArrivalOrder, today);
      await eventually(async () => expect(await sessionsWaitingForLocks(api.db)).toBe(2));
      await holder.commitTransaction();
      expect((await movingOut).status).toBe(200);
      // The lower rental moved out under the batch: its version is gone, so only the higher one is written.
      expect(await writing).toEqual([higher]);
    } finally {
      await holder.release();
    }
  });
});

/** A tenant who signed a lease through the api and has a second rental at the same facility, owing nothing. */
async function tenantWithTwoRentals(firstName: string, lastName: string): Promise<{ rental: string; sibling: string; personUuid: string }> {
  const lead = await leadWithLease(api, LEASED_GROUPS[0], { firstName, lastName });
  await api.postForm(signingPath(lead.link), { agree: 'yes' });
  const rental = (await rentalOf(api.db, lead.leadUuid))!;
  const [{ portfolioUuid, facilityUuid }] = await query(
    api.db,
    sql<{ portfolioUuid: string; facilityUuid: string }>(
      'SELECT portfolio_uuid AS "portfolioUuid", facility_uuid AS "facilityUuid" FROM rental_records WHERE uuid = $1',
    ),
    [rental],
  );
  const today = await facilityToday(api.db);
  const sibling = randomUUID();
  // A vacant unit of the facility outside the groups the tests sign leases of.
  const [{ unitUuid, siblingGroup }] = await query(
    api.db,
    sql<{ unitUuid: string; siblingGroup: string }>(
      `SELECT uuid AS "unitUuid", unit_group_uuid AS "siblingGroup" FROM units
        WHERE facility_uuid = $1 AND status = 'vacant' AND unit_group_uuid <> ALL($2::uuid[]) ORDER BY name, uuid LIMIT 1`,
    ),
    [facilityUuid, LEASED_GROUPS],
  );
  await api.db.transaction((manager) =>
    importRentals(manager, [
      {
        uuid: sibling,
        portfolioUuid,
        facilityUuid,
        unitUuid,
        unitGroupUuid: siblingGroup,
        personUuid: lead.personUuid,
        leadUuid: null,
        rentInPennies: 12_000,
        startDate: today,
        nextDueDate: addDays(today, 30),
        autopayPaymentMethod: null,
        gateCode: { uuid: randomUUID(), code: String(100_000 + Math.floor(Math.random() * 900_000)) },
        services: [],
        vehicles: [],
        coverageEnrollments: [],
      },
    ]),
  );
  return { rental, sibling, personUuid: lead.personUuid };
}

/**
 * Runs `act` while another transaction, as any writer of one rental does, holds the sibling's row with a late fee
 * posted; commits that writer once `act` has answered or waits for a lock.
 */
async function whileSiblingIsWritten(sibling: string, act: () => Promise<{ status: number }>): Promise<void> {
  const writer = api.db.createQueryRunner();
  await writer.connect();
  try {
    await writer.startTransaction();
    await query(writer.manager, sql('SELECT 1 FROM rental_records WHERE uuid = $1 FOR NO KEY UPDATE'), [sibling]);
    const today = await facilityToday(api.db);
    await postEntries(writer.manager, sibling, [{ kind: 'LATE_FEE', description: 'Late fee', amountInPennies: 2_500, postedOn: today, dueOn: today }]);
    let answered = false;
    const acting = act().finally(() => (answered = true));
    await eventually(async () => expect(answered || (await sessionsWaitingForLocks(api.db)) > 0).toBe(true));
    await writer.commitTransaction();
    expect((await acting).status).toBe(200);
  } finally {
    await writer.release();
  }
}

/** The rental's latest lifecycle event of this type in the log. */
async function latestEvent<Type extends PublicEventType>(rental: string, type: Type): Promise<EventEnvelope<Type>> {
  const rows = await query(
    api.db,
    sql<{ envelope: unknown }>('SELECT envelope FROM outbox WHERE topic = $1 AND key = $2 AND type = $3 ORDER BY id DESC LIMIT 1'),
    [TENANT_LIFECYCLE_TOPIC, rental, type],
  );
  expect(rows).toHaveLength(1);
  return parseEnvelope(rows[0].envelope) as EventEnvelope<Type>;
}

/** The tenant's balance now, as an event of `rental` shows it: their active rentals', and this one's (moved out or not). */
async function tenantBalance(personUuid: string, rental: string): Promise<number> {
  const [{ balance }] = await query(
    api.db,
    sql<{ balance: number }>(`SELECT sum(balance_in_pennies)::int AS balance FROM rental_records WHERE person_uuid = $1 AND (status = 'ACTIVE' OR uuid = $2)`),
    [personUuid, rental],
  );
  return balance;
}
