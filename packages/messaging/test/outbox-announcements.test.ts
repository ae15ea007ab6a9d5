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

/** A batched writer of its own statement, as the api's hot writes are: several events, each announced. */
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

  it('announces each row on its topic channel alone, with the row a follower takes instead of reading the log', async () => {
    heard.length = 0;
    const envelopes = [payment(randomUUID(), 1), payment(randomUUID(), 2), payment(randomUUID(), 3)];
    const [written] = await dataSource.transaction((manager) => query(manager, WRITE_EVENTS, [...outboxValues(envelopes), SERVICE]));
    expect(written).toEqual({ announced: 3 });
    await eventually(() => expect(heard).toHaveLength(3));
    // Followers of other topics, and those listening for any topic, are not woken.
    expect(heard.map((notification) => notification.channel)).toEqual(Array(3).fill(topicChannel(BILLING)));

    const positions = (await query(dataSource, POSITIONS, [envelopes.map((envelope) => envelope.eventId)])).map((row) => BigInt(row.position));
    const announced = new AnnouncedRecords();
    announced.reading();
    for (const notification of heard) announced.offer(notification.payload ?? '');
    const taken = announced.take(positions[0] - 1n);
    expect(taken.map((record) => [record.position, record.eventId, record.source, record.topic])).toEqual(
      envelopes.map((envelope, i) => [positions[i], envelope.eventId, SERVICE, BILLING]),
    );
    expect(taken.map((record) => record.envelope)).toEqual(JSON.parse(JSON.stringify(envelopes)));
    expect(announced.mustRead).toBe(false);
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
