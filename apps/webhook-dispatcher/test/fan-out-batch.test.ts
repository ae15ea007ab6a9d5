import { randomUUID } from 'node:crypto';
import type { DeliveryEngine, Reservation } from '../src/delivery/delivery-engine';
import type { ClaimedMessage } from '../src/delivery/message-store';
import { fanOut } from '../src/fan-out/fan-out';
import { FanOutBatcher } from '../src/fan-out/fan-out-batcher';
import { fanOutAndMarkMany } from '../src/fan-out/fan-out-many';
import { seedEndpoint } from './support/endpoints';
import { sampleEvent } from './support/events';
import { createHarness, type Harness } from './support/harness';
import { makeCertificate, type TestCertificate } from './support/receiver';
import { query, sql } from '@storage/persistence';

const GROUP = 'webhook-dispatcher';
const NO_CLAIM = { count: 0, leaseUntil: new Date(0), settled: [] };

/** The engine as the batcher sees it: room to claim for, what it was handed, and its wakes. */
function fakeEngine(room: number) {
  const seen = { wakes: 0, handed: [] as ClaimedMessage[], outstanding: 0 };
  const engine = {
    wake: () => (seen.wakes += 1),
    reserve: (limit: number): Reservation => {
      const count = Math.min(room, limit);
      seen.outstanding += count;
      return { count, leaseUntil: new Date(Date.now() + 60_000), settled: [] };
    },
    deliverReserved: (reservation: Reservation, messages: ClaimedMessage[]) => {
      seen.outstanding -= reservation.count;
      seen.handed.push(...messages);
    },
  };
  return { engine: engine as unknown as DeliveryEngine, seen };
}

describe('fan-out of many events in one statement', () => {
  let certificate: TestCertificate;
  let h: Harness;

  beforeAll(async () => {
    certificate = await makeCertificate();
  });
  afterAll(() => certificate.cleanup());
  beforeEach(async () => {
    h = await createHarness(certificate);
  });
  afterEach(async () => h.close());

  const messages = async () =>
    query(
      h.dataSource,
      sql<{ endpoint_id: string; event_id: string; body: string }>('SELECT endpoint_id, event_id, body FROM webhook_messages ORDER BY event_id, endpoint_id'),
    );

  it('creates the messages one fan-out per event would, each once, and marks every event processed', async () => {
    const facility = randomUUID();
    const unitType = randomUUID();
    const amenity = randomUUID();
    await seedEndpoint(h.dataSource, { url: 'https://127.0.0.1/all' });
    await seedEndpoint(h.dataSource, { url: 'https://127.0.0.1/facility', facilityUuids: [facility] });
    await seedEndpoint(h.dataSource, { url: 'https://127.0.0.1/unit-type', unitTypes: [unitType] });
    await seedEndpoint(h.dataSource, { url: 'https://127.0.0.1/amenity', amenityUuids: [amenity, randomUUID()] });
    await seedEndpoint(h.dataSource, { url: 'https://127.0.0.1/moved-out', eventTypes: ['moved-out'] });
    await seedEndpoint(h.dataSource, { url: 'https://127.0.0.1/other', portfolio: 'other' });
    const events = [
      sampleEvent('moved-in', { facilityUuid: facility, unitType, amenityUuids: [amenity] }),
      sampleEvent('moved-out', { amenityUuids: [randomUUID()] }),
      sampleEvent('rent-change', { unitType: null }),
      sampleEvent('transfer', { portfolio: 'nobody' }),
    ];

    const { created } = await fanOutAndMarkMany(
      h.dataSource,
      events.map((event) => ({ group: GROUP, key: event.eventId, event })),
      h.clock.now(),
      NO_CLAIM,
    );
    expect(created).toEqual([4, 2, 1, 0]);
    const batched = await messages();

    // The same events, one statement each, in a fresh database: the same messages.
    await query(h.dataSource, sql('DELETE FROM webhook_messages'));
    for (const event of events) await h.dataSource.transaction((manager) => fanOut(manager, event, { now: h.clock.now() }));
    expect(batched.map(({ endpoint_id, event_id, body }) => ({ endpoint_id, event_id, body }))).toEqual(await messages());

    // Each alone, a batch of one (the statement's form with plain parameters), under another group's marks: the same.
    await query(h.dataSource, sql('DELETE FROM webhook_messages'));
    const alone = async () => {
      const created: (number | undefined)[] = [];
      for (const event of events)
        created.push(...(await fanOutAndMarkMany(h.dataSource, [{ group: 'alone', key: event.eventId, event }], h.clock.now(), NO_CLAIM)).created);
      return created;
    };
    expect(await alone()).toEqual([4, 2, 1, 0]);
    expect(await messages()).toEqual(batched);
    expect(await alone()).toEqual([undefined, undefined, undefined, undefined]);

    // Delivered again (a crash before the offset was saved): nothing new, every event known as applied.
    await query(h.dataSource, sql('DELETE FROM webhook_messages'));
    expect(
      await fanOutAndMarkMany(
        h.dataSource,
        events.map((event) => ({ group: GROUP, key: event.eventId, event })),
        h.clock.now(),
        NO_CLAIM,
      ),
    ).toEqual({
      created: [undefined, undefined, undefined, undefined],
      claimed: [],
    });
    expect(await messages()).toEqual([]);
  });

  it('batches events handed over together, wakes the engine once per statement, and fails only a bad event', async () => {
    await seedEndpoint(h.dataSource, { url: 'https://127.0.0.1/all' });
    const { engine, seen } = fakeEngine(0);
    const batcher = new FanOutBatcher(h.dataSource, engine, h.clock);
    const events = Array.from({ length: 20 }, () => sampleEvent('moved-in'));
    const bad = { ...sampleEvent('moved-in'), filters: { facilityUuid: 'not-a-uuid', unitType: null, amenityUuids: [] } };

    const results = await Promise.allSettled([...events, bad].map((event) => batcher.fanOutBatched(GROUP, event.eventId, event)));

    expect(results.slice(0, 20)).toEqual(events.map(() => ({ status: 'fulfilled', value: 1 })));
    expect(results[20]).toMatchObject({ status: 'rejected', reason: expect.objectContaining({ message: expect.stringMatching(/uuid/) }) });
    expect((await messages()).map((m) => m.event_id).sort()).toEqual(events.map((e) => e.eventId).sort());
    // The first event goes alone, the others that arrived meanwhile in one statement (then each alone, as one is bad).
    expect(seen.wakes).toBe(2);
    expect(seen.outstanding).toBe(0);
    const marks = await query(h.dataSource, sql<{ event_id: string }>('SELECT event_id FROM processed_events WHERE consumer_group = $1'), [GROUP]);
    expect(marks.map((m) => m.event_id).sort()).toEqual(events.map((e) => e.eventId).sort());
  });

  it('creates messages claimed for the engine as far as it has room, hands them over signed-ready, and wakes it for the rest', async () => {
    const { id: endpointId } = await seedEndpoint(h.dataSource, { url: 'https://127.0.0.1/all' });
    const { engine, seen } = fakeEngine(1);
    const batcher = new FanOutBatcher(h.dataSource, engine, h.clock);
    const events = Array.from({ length: 3 }, () => sampleEvent('moved-in'));

    await Promise.all(events.map((event) => batcher.fanOutBatched(GROUP, event.eventId, event)));

    // The first event alone (its message claimed), then two together (one claimed, one due now for the pump).
    expect(seen.handed).toHaveLength(2);
    expect(seen.wakes).toBe(1);
    expect(seen.handed.every((m) => m.endpointId === endpointId && m.url === 'https://127.0.0.1/all' && m.attempts === 0 && m.storedSecret.length > 0)).toBe(
      true,
    );
    expect(seen.outstanding).toBe(0);
    const rows = await query(h.dataSource, sql<{ id: string; due_now: boolean }>('SELECT id, next_attempt_at <= $1 AS due_now FROM webhook_messages'), [
      h.clock.now(),
    ]);
    expect(rows).toHaveLength(3);
    // Claimed messages are leased (not due), so neither this replica's pump nor another takes them meanwhile.
    expect(
      rows
        .filter((r) => !r.due_now)
        .map((r) => r.id)
        .sort(),
    ).toEqual(seen.handed.map((m) => m.id).sort());
  });
});
