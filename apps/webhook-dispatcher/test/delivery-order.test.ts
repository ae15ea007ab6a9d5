import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { query, sql } from '@storage/persistence';
import { eventually } from '@storage/testing';
import { MessageStore } from '../src/delivery/message-store';
import { endpointPage } from '../src/portal/portal-pages';
import { PortalQueries } from '../src/portal/portal-queries';
import { seedEndpoint } from './support/endpoints';
import { sampleEvent } from './support/events';
import { createHarness, type Harness } from './support/harness';
import { makeCertificate, TestReceiver, type ReceivedRequest, type TestCertificate } from './support/receiver';

const SECOND = 1_000;

/** The event id a delivery carries. */
const eventIdOf = (request: ReceivedRequest): string => (JSON.parse(request.body) as { data: [{ eventId: string }] }).data[0].eventId;

/**
 * The engine's order and isolation rules, with the interleavings forced: a receiver that holds or fails chosen
 * deliveries, and the fake clock for retries.
 */
describe('delivery order and endpoint isolation', () => {
  let certificate: TestCertificate;
  let receiver: TestReceiver;
  let h: Harness;
  /** Responses the receiver holds open; ended after each test so engines can stop. */
  let held: ServerResponse[];

  beforeAll(async () => {
    certificate = await makeCertificate();
    receiver = await new TestReceiver(certificate).start();
  });
  afterAll(async () => {
    await receiver.stop();
    certificate.cleanup();
  });
  beforeEach(async () => {
    receiver.requests.length = 0;
    held = [];
    h = await createHarness(certificate);
  });
  afterEach(async () => {
    for (const response of held) response.destroy();
    await h.close();
  });

  const answer = (response: ServerResponse, status = 204) => {
    response.statusCode = status;
    response.end();
  };
  const received = (path = '/webhook') => receiver.requests.filter((request) => request.path === path).map(eventIdOf);

  it('does not send a rental’s later event while its earlier one is in flight; other rentals go on', async () => {
    await seedEndpoint(h.dataSource, { url: receiver.url() });
    const rental = randomUUID();
    const first = sampleEvent('moved-in', { rentalRecordUuid: rental, occurredAt: new Date(1_000) });
    const second = sampleEvent('rent-change', { rentalRecordUuid: rental, occurredAt: new Date(2_000) });
    const other = sampleEvent('moved-in');
    receiver.respond = (request, response) => (eventIdOf(request) === first.eventId ? held.push(response) : answer(response));
    for (const event of [first, second, other]) await h.publish(event);
    const engine = h.engine({ pollMs: 60_000 });
    engine.start();
    try {
      await eventually(() => expect(received()).toEqual(expect.arrayContaining([first.eventId, other.eventId])));
      expect(received()).not.toContain(second.eventId);
      answer(held.shift()!);
      await eventually(() => expect(received()).toContain(second.eventId));
      expect(received().indexOf(second.eventId)).toBeGreaterThan(received().indexOf(first.eventId));
    } finally {
      await engine.stop();
    }
  });

  it.each([
    { orderedDelivery: false, order: 'sends the later event once the earlier one waits for its retry' },
    { orderedDelivery: true, order: 'holds the later event until the earlier one succeeded (orderedDelivery)' },
  ])('$order', async ({ orderedDelivery }) => {
    await seedEndpoint(h.dataSource, { url: receiver.url(), orderedDelivery });
    const rental = randomUUID();
    const first = sampleEvent('moved-in', { rentalRecordUuid: rental, occurredAt: new Date(1_000) });
    const second = sampleEvent('rent-change', { rentalRecordUuid: rental, occurredAt: new Date(2_000) });
    const other = sampleEvent('moved-in');
    let failedOnce = false;
    receiver.respond = (request, response) => {
      const fail = eventIdOf(request) === first.eventId && !failedOnce;
      failedOnce ||= fail;
      answer(response, fail ? 500 : 204);
    };
    for (const event of [first, second, other]) await h.publish(event);
    const engine = h.engine();
    await engine.runOnce();
    expect(received().sort()).toEqual((orderedDelivery ? [first, other] : [first, second, other]).map((e) => e.eventId).sort());
    h.clock.advance(10 * SECOND);
    await engine.runOnce();
    const retried = received().slice(orderedDelivery ? 2 : 3);
    expect(retried).toEqual(orderedDelivery ? [first.eventId, second.eventId] : [first.eventId]);
  });

  it('shows in the portal which message holds a rental’s later one back, and what it waits for', async () => {
    const { id } = await seedEndpoint(h.dataSource, { url: receiver.url(), orderedDelivery: true });
    const rental = randomUUID();
    const first = sampleEvent('moved-in', { rentalRecordUuid: rental, occurredAt: new Date(1_000) });
    const second = sampleEvent('rent-change', { rentalRecordUuid: rental, occurredAt: new Date(2_000) });
    receiver.respond = (_request, response) => answer(response, 500);
    for (const event of [first, second]) await h.publish(event);
    await h.engine().runOnce();
    const portal = new PortalQueries(h.dataSource);
    const log = await portal.messages(id, {}, null);
    const [waiting, holding] = [second, first].map((event) => log.messages.find((m) => m.eventId === event.eventId)!);
    expect(waiting.heldBy).toBe(holding.id);
    expect(holding.heldBy).toBeNull();
    const endpoint = (await portal.endpoint('acme', id))!;
    const rates = await portal.rates(id, new Date(0), 'day', 0);
    const page = endpointPage({ endpoint, lastDay: { rates, hours: [] }, week: rates, log, logQuery: {}, revealedSecret: null, now: new Date(), csrf: 'x' });
    expect(page).toContain(`held: waits for <code>${holding.id}</code>`);
    expect(page).toMatch(/name="orderedDelivery" checked/);
    expect(page).toContain('name="maxInFlight" min="1" max="256" required value="16"');
    expect(page).toMatch(/failing since [^<]*: one delivery at a time until one succeeds/);
  });

  it('gives an endpoint that never answers no more than its maxInFlight slots: another endpoint’s events go on', async () => {
    await seedEndpoint(h.dataSource, { portfolio: 'hanging', url: receiver.url('/hang'), maxInFlight: 2 });
    await seedEndpoint(h.dataSource, { portfolio: 'healthy', url: receiver.url('/ok') });
    receiver.respond = (request, response) => (request.path === '/hang' ? held.push(response) : answer(response));
    const engine = h.engine({ pollMs: 60_000, concurrency: 8 });
    engine.start();
    try {
      for (let n = 0; n < 10; n++) await h.publish(sampleEvent('moved-in', { portfolio: 'hanging' }));
      engine.wake();
      await eventually(() => expect(received('/hang')).toHaveLength(2));
      const healthy = Array.from({ length: 6 }, () => sampleEvent('moved-in', { portfolio: 'healthy' }));
      for (const event of healthy) await h.publish(event);
      engine.wake();
      await eventually(() => expect(received('/ok').sort()).toEqual(healthy.map((e) => e.eventId).sort()));
      expect(received('/hang')).toHaveLength(2);
      // A hanging delivery answered: the endpoint's next message takes its slot.
      answer(held.shift()!);
      await eventually(() => expect(received('/hang')).toHaveLength(3));
    } finally {
      for (const response of held) answer(response);
      held = [];
      await engine.stop();
    }
  });

  /** The hanging endpoint's messages claimed now: the deliveries in flight, whichever replica holds them. */
  const claimedOf = async (endpointId: string) => (await query(h.dataSource, CLAIMED_OF, [endpointId, h.clock.now()]))[0].claimed;

  it('holds an endpoint’s maxInFlight across replicas: a second replica takes none of a hanging endpoint’s messages beyond it', async () => {
    const { id } = await seedEndpoint(h.dataSource, { portfolio: 'hanging', url: receiver.url('/hang'), maxInFlight: 2 });
    await seedEndpoint(h.dataSource, { portfolio: 'healthy', url: receiver.url('/ok') });
    receiver.respond = (request, response) => (request.path === '/hang' ? held.push(response) : answer(response));
    for (let n = 0; n < 10; n++) await h.publish(sampleEvent('moved-in', { portfolio: 'hanging' }));
    const first = h.engine({ pollMs: 60_000, concurrency: 8 });
    const second = h.engine({ pollMs: 60_000, concurrency: 8 });
    first.start();
    try {
      await eventually(() => expect(received('/hang')).toHaveLength(2));
      // The second replica's first claim: it takes the healthy endpoint's message and, had it room, the hanging one's.
      await h.publish(sampleEvent('moved-in', { portfolio: 'healthy' }));
      second.start();
      await eventually(() => expect(received('/ok')).toHaveLength(1));
      expect(await claimedOf(id)).toBe(2);
      answer(held.shift()!);
      await eventually(() => expect(received('/hang')).toHaveLength(3));
      // The answered attempt's lease ends as it is recorded (within the group-commit wait).
      await eventually(async () => expect(await claimedOf(id)).toBe(2));
    } finally {
      for (const response of held) answer(response);
      held = [];
      await Promise.all([first.stop(), second.stop()]);
    }
  });

  it('probes a failing endpoint one delivery at a time, across replicas, and gives it its maxInFlight back once one succeeds', async () => {
    const { id } = await seedEndpoint(h.dataSource, { url: receiver.url('/hang'), maxInFlight: 3 });
    receiver.respond = (_request, response) => held.push(response);
    for (let n = 0; n < 12; n++) await h.publish(sampleEvent('moved-in'));
    const engine = h.engine({ pollMs: 60_000, concurrency: 8 });
    const otherReplica = new MessageStore(h.dataSource);
    const claimElsewhere = () => otherReplica.claimDue(h.clock.now(), new Date(h.clock.now().getTime() + 60 * SECOND), 8, [], 'other');
    engine.start();
    try {
      await eventually(() => expect(received('/hang')).toHaveLength(3));
      // All three fail: the endpoint's failure run starts, and only a probe goes until one succeeds.
      for (const response of held.splice(0)) answer(response, 503);
      await eventually(() => expect(received('/hang')).toHaveLength(4));
      await eventually(async () => expect(await claimedOf(id)).toBe(1));
      expect(await claimElsewhere()).toEqual([]);
      expect(received('/hang')).toHaveLength(4);
      // The probe succeeds: the run ends and the endpoint has its three slots again.
      answer(held.shift()!);
      await eventually(() => expect(received('/hang')).toHaveLength(7));
      await eventually(async () => expect(await claimedOf(id)).toBe(3));
    } finally {
      for (const response of held) answer(response);
      held = [];
      await engine.stop();
    }
  });

  it('holds an endpoint’s maxInFlight when replicas claim at the same moment', async () => {
    const { id } = await seedEndpoint(h.dataSource, { url: receiver.url('/hang'), maxInFlight: 3 });
    receiver.respond = (_request, response) => held.push(response);
    for (let n = 0; n < 40; n++) await h.publish(sampleEvent('moved-in'));
    const stores = Array.from({ length: 4 }, () => new MessageStore(h.dataSource));
    const claimAtOnce = () =>
      Promise.all(stores.map((store) => store.claimDue(h.clock.now(), new Date(h.clock.now().getTime() + 60 * SECOND), 8, [], 'replica')));
    expect((await claimAtOnce()).flat()).toHaveLength(3);
    expect(await claimedOf(id)).toBe(3);
    // Leases run out (their replica died): their slots are free again, and only theirs.
    h.clock.advance(61 * SECOND);
    expect((await claimAtOnce()).flat()).toHaveLength(3);
  });
});

const CLAIMED_OF = sql<{ claimed: number }, [string, Date]>(
  `SELECT count(*)::int AS claimed FROM webhook_messages WHERE endpoint_id = $1 AND status = 'pending' AND claimed AND next_attempt_at > $2`,
);
