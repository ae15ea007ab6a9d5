import { randomUUID } from 'node:crypto';
import { Client, type Notification } from 'pg';
import type { DataSource } from 'typeorm';
import { TENANT_LIFECYCLE_TOPIC } from '@storage/domain';
import { createTestDatabase, eventually, type TestDatabase } from '@storage/testing';
import { query, sql } from '@storage/persistence';
import { OUTBOX_CHANNEL, OUTBOX_RETURNING, outboxAnnouncements, outboxInsert, outboxValues, type OutboxValues } from '../src';
import { AnnouncedRecords } from '../src/embedded/announced-records';
import { topicChannel } from '../src/embedded/log-follower';
import { BILLING, openDataSource, payment, SERVICE } from './support';

/** A batched writer of its own statement, as the api's hot writes are. */
const WRITE_EVENTS = sql<{ announced: number }, [...OutboxValues, source: string]>(
  `WITH input AS (
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::json[]) WITH ORDINALITY AS i(topic, key, type, event_id, envelope, ord)
), entry AS (
  ${outboxInsert('(SELECT i.topic, i.key, i.type, i.event_id, i.envelope FROM input i ORDER BY i.ord) AS e', '$6')}
  ${OUTBOX_RETURNING}
)
SELECT ${outboxAnnouncements('entry')}::int AS announced`,
);
const POSITIONS = sql<{ position: string }, [eventIds: string[]]>('SELECT id::text AS position FROM outbox WHERE event_id = ANY($1) ORDER BY id');

describe('outbox announcements of a batched writer', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let listener: Client;
  const heard: Notification[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openDataSource(database.url);
    listener = new Client({ connectionString: database.url });
    await listener.connect();
    listener.on('notification', (notification) => heard.push(notification));
    const channels = [OUTBOX_CHANNEL, topicChannel(BILLING), topicChannel(TENANT_LIFECYCLE_TOPIC)];
    await query(listener, sql(channels.map((channel) => `LISTEN ${listener.escapeIdentifier(channel)};`).join(' ')));
  });

  afterAll(async () => {
    await listener.end();
    await dataSource.destroy();
    await database.drop();
  });

  it('announces a row written alone on its topic channel, with the row a follower takes instead of reading the log', async () => {
    heard.length = 0;
    const envelope = payment(randomUUID(), 1);
    const [written] = await dataSource.transaction((manager) => query(manager, WRITE_EVENTS, [...outboxValues([envelope]), SERVICE]));
    expect(written).toEqual({ announced: 1 });
    await eventually(() => expect(heard).toHaveLength(1));
    // Followers of other topics, and those listening for any topic, are not woken.
    expect(heard[0].channel).toBe(topicChannel(BILLING));

    const [{ position }] = await query(dataSource, POSITIONS, [[envelope.eventId]]);
    const announced = new AnnouncedRecords();
    announced.reading();
    announced.offer(heard[0].payload ?? '');
    const taken = announced.take(BigInt(position) - 1n);
    expect(taken.map((record) => [record.position, record.eventId, record.source, record.topic])).toEqual([
      [BigInt(position), envelope.eventId, SERVICE, BILLING],
    ]);
    expect(taken[0].envelope).toEqual(JSON.parse(JSON.stringify(envelope)));
    expect(announced.mustRead).toBe(false);
  });

  it('notifies a batch of rows once per topic, without payload: a follower reads them from the log in one read', async () => {
    heard.length = 0;
    const envelopes = [payment(randomUUID(), 1), payment(randomUUID(), 2), payment(randomUUID(), 3)];
    await dataSource.transaction((manager) => query(manager, WRITE_EVENTS, [...outboxValues(envelopes), SERVICE]));
    // Then a row alone: heard after the batch's, so the batch's notifications have all arrived by then.
    const last = payment(randomUUID(), 4);
    await dataSource.transaction((manager) => query(manager, WRITE_EVENTS, [...outboxValues([last]), SERVICE]));
    await eventually(() => expect(heard.some((notification) => notification.payload?.includes(last.eventId))).toBe(true));
    expect(heard.map((notification) => [notification.channel, notification.payload === '' ? 'no payload' : 'payload'])).toEqual([
      [topicChannel(BILLING), 'no payload'],
      [topicChannel(BILLING), 'payload'],
    ]);
    const announced = new AnnouncedRecords();
    announced.reading();
    announced.offer(heard[0].payload ?? '');
    expect(announced.mustRead).toBe(true);
  });

  it('announces nothing of a write rolled back', async () => {
    heard.length = 0;
    const envelope = payment(randomUUID(), 4);
    await expect(
      dataSource.transaction(async (manager) => {
        await query(manager, WRITE_EVENTS, [...outboxValues([envelope]), SERVICE]);
        throw new Error('refused');
      }),
    ).rejects.toThrow('refused');
    // A committed write after it is heard alone: the rolled-back one sent nothing before it.
    const [written] = await dataSource.transaction((manager) => query(manager, WRITE_EVENTS, [...outboxValues([payment(randomUUID(), 5)]), SERVICE]));
    expect(written).toEqual({ announced: 1 });
    await eventually(() => expect(heard).toHaveLength(1));
    expect(JSON.parse(heard[0].payload ?? '{}')).toMatchObject({ envelope: { payload: { amountInPennies: 5 } } });
  });
});
