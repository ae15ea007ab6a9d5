import { randomUUID } from 'node:crypto';
import { Client, type Notification } from 'pg';
import type { DataSource } from 'typeorm';
import { BILLING_TOPIC, TENANT_LIFECYCLE_TOPIC } from '@storage/domain';
import { OUTBOX_CHANNEL } from '@storage/messaging';
import { createDataSource, query, sql } from '@storage/persistence';
import { createTestDatabase, eventually, insertRentalParents, type RentalParents, type TestDatabase } from '@storage/testing';
import { recordPayments } from '../src';
import { insertRental } from './support/rentals';

let database: TestDatabase;
let db: DataSource;
let parents: RentalParents;
let listener: Client;
const heard: Notification[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  db = await createDataSource({ url: database.url, applicationName: 'payments-test', poolSize: 2 }).initialize();
  parents = await insertRentalParents(db);
  listener = new Client({ connectionString: database.url });
  await listener.connect();
  listener.on('notification', (notification) => heard.push(notification));
  const channels = [OUTBOX_CHANNEL, `${OUTBOX_CHANNEL}:${BILLING_TOPIC}`, `${OUTBOX_CHANNEL}:${TENANT_LIFECYCLE_TOPIC}`];
  await query(listener, sql(channels.map((channel) => `LISTEN ${listener.escapeIdentifier(channel)};`).join(' ')));
});
afterAll(async () => {
  await listener?.end();
  await db?.destroy();
  await database?.drop();
});

const VERSION = sql<{ version: string }, [string]>('SELECT xmin::text AS version FROM rental_records WHERE uuid = $1');

describe('recorded payments', () => {
  it("announce on billing's channel only, so no other group wakes: a payment alone with its row, so billing's need not read the log; a batch once", async () => {
    const rentals = await Promise.all(
      [1, 2, 3].map(() => insertRental(db, parents, { billingDayOfMonth: 15, nextDueDate: '2026-04-15', startDate: '2026-03-15' })),
    );
    const payments = await Promise.all(
      rentals.map(async (rentalRecordUuid, i) => ({
        rentalRecordUuid,
        portfolioId: 'demo',
        paymentUuid: randomUUID(),
        amountInPennies: 100 + i,
        paidOn: '2026-03-15',
        version: (await query(db, VERSION, [rentalRecordUuid]))[0].version,
        balanceInPennies: 0,
      })),
    );
    heard.length = 0;

    expect((await recordPayments(db, payments.slice(0, 2), 'payments-test')).sort()).toEqual(rentals.slice(0, 2).sort());
    const alone = payments[2];
    expect(await recordPayments(db, [alone], 'payments-test')).toEqual([alone.rentalRecordUuid]);

    await eventually(() => expect(heard).toHaveLength(2));
    expect(heard.map((notification) => notification.channel)).toEqual([`${OUTBOX_CHANNEL}:${BILLING_TOPIC}`, `${OUTBOX_CHANNEL}:${BILLING_TOPIC}`]);
    expect(heard[0].payload).toBe('');
    expect(JSON.parse(heard[1].payload ?? '{}')).toEqual(
      expect.objectContaining({
        topic: BILLING_TOPIC,
        type: 'payment-recorded',
        source: 'payments-test',
        envelope: expect.objectContaining({ payload: expect.objectContaining({ paymentUuid: alone.paymentUuid, amountInPennies: alone.amountInPennies }) }),
      }),
    );
  });
});
