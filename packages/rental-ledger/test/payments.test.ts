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
  it("announce each event on billing's channel with its row, so no other group wakes and billing's need not read the log", async () => {
    const rentals = [
      await insertRental(db, parents, { billingDayOfMonth: 15, nextDueDate: '2026-04-15', startDate: '2026-03-15' }),
      await insertRental(db, parents, { billingDayOfMonth: 15, nextDueDate: '2026-04-15', startDate: '2026-03-15' }),
    ];
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

    expect((await recordPayments(db, payments, 'payments-test')).sort()).toEqual([...rentals].sort());

    await eventually(() => expect(heard).toHaveLength(2));
    expect(heard.map((notification) => notification.channel)).toEqual([`${OUTBOX_CHANNEL}:${BILLING_TOPIC}`, `${OUTBOX_CHANNEL}:${BILLING_TOPIC}`]);
    expect(heard.map((notification) => JSON.parse(notification.payload ?? '{}') as unknown)).toEqual(
      payments.map((payment): unknown =>
        expect.objectContaining({
          topic: BILLING_TOPIC,
          type: 'payment-recorded',
          source: 'payments-test',
          envelope: expect.objectContaining({
            payload: expect.objectContaining({ paymentUuid: payment.paymentUuid, amountInPennies: payment.amountInPennies }),
          }),
        }),
      ),
    );
  });
});
