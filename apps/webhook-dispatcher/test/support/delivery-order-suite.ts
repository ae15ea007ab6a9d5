import { createHash, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { OutboxPublisher } from '@storage/messaging';
import { createDataSource, query, sql } from '@storage/persistence';
import { createTestDatabase, eventually, type TestDatabase } from '@storage/testing';
import { startDispatcher, type DispatcherProcess } from './dispatcher-process';
import { seedEndpoint } from './endpoints';
import { makeCertificate, TestReceiver, type ReceivedRequest, type TestCertificate } from './receiver';
import { distinctEvents, firstReceipts, publishRounds, rentalsOutOfOrder, rentalStreams } from './rental-streams';

/** What carries events from the outbox to the dispatcher: started once per suite, giving the dispatcher's variables. */
export interface TransportUnderTest {
  start: (databaseUrl: string) => Promise<Record<string, string>>;
  stop: () => Promise<void>;
}

/** A byte fixed by the message id, so a rerun fails and delays the same messages. */
const byteOf = (hookId: string, n: number): number => createHash('sha256').update(hookId).digest()[n];
/** Whether the receiver fails this first attempt: 30 % of message ids. */
const failsFirstAttempt = (hookId: string): boolean => byteOf(hookId, 0) < 0.3 * 256;
/** How long the receiver takes to answer, 0 to 15 ms, as real receivers vary: busy connections make the sender open others. */
const answerDelayMs = (hookId: string): number => byteOf(hookId, 1) % 16;

/**
 * The order of one rental's events at one endpoint, end to end through `transport`: without failures in emission order
 * by default; with `orderedDelivery`, first received and first accepted in emission order though 30 % of first attempts
 * fail, also across two replicas of which one is killed midway.
 */
export function deliveryOrderSuite(transport: TransportUnderTest): void {
  const outbox = new OutboxPublisher('test-producer');
  let certificate: TestCertificate;
  let receiver: TestReceiver;
  let database: TestDatabase;
  let db: DataSource;
  let env: Record<string, string>;
  let dispatchers: DispatcherProcess[] = [];
  /** The requests the receiver answered 2xx, in arrival order. */
  let accepted: ReceivedRequest[] = [];

  beforeAll(async () => {
    certificate = await makeCertificate();
    receiver = await new TestReceiver(certificate).start();
    database = await createTestDatabase();
    db = await createDataSource({ url: database.url, applicationName: 'delivery-order-e2e' }).initialize();
    env = await transport.start(database.url);
  }, 90_000);

  afterEach(async () => {
    for (const dispatcher of dispatchers) await dispatcher.stop();
    dispatchers = [];
  });

  afterAll(async () => {
    await transport.stop();
    await db?.destroy();
    await database?.drop();
    await receiver?.stop();
    certificate?.cleanup();
  });

  const start = async () => {
    const dispatcher = await startDispatcher({
      DATABASE_URL: database.url,
      WEBHOOK_ALLOWED_SUBNETS: '127.0.0.1/32',
      NODE_EXTRA_CA_CERTS: certificate.certFile,
      ...env,
    });
    dispatchers.push(dispatcher);
    return dispatcher;
  };

  /** A receiver at a path of its own: every request kept, answered after a while; 30 % of first attempts 500 when `failing`. */
  const endpointReceiver = (failing: boolean) => {
    const path = `/order-${randomUUID().slice(0, 8)}`;
    const tried = new Set<string>();
    accepted = [];
    receiver.respond = (request, response) => {
      const hookId = String(request.headers['hook-id']);
      const fail = failing && !tried.has(hookId) && failsFirstAttempt(hookId);
      tried.add(hookId);
      response.statusCode = fail ? 500 : 204;
      if (!fail && request.path === path) accepted.push(request);
      setTimeout(() => response.end(), answerDelayMs(hookId));
    };
    return { url: receiver.url(path), requests: () => receiver.requests.filter((request) => request.path === path) };
  };

  it('without the option and without failures, delivers each of 200 rentals’ 10 events in emission order', async () => {
    const portfolio = `order-${randomUUID().slice(0, 8)}`;
    const target = endpointReceiver(false);
    await seedEndpoint(db, { portfolio, url: target.url });
    await start();
    const streams = rentalStreams({ rentals: 200, perRental: 10, portfolio });
    await publishRounds(db, outbox, streams);
    await eventually(() => expect(distinctEvents(target.requests())).toBe(2_000), { timeoutMs: 120_000 });
    expect(rentalsOutOfOrder(streams.emitted, firstReceipts(target.requests()))).toEqual([]);
  }, 180_000);

  it('with orderedDelivery, delivers 1,000 events of 50 rentals in order though 30 % of first attempts fail', async () => {
    const portfolio = `order-${randomUUID().slice(0, 8)}`;
    const target = endpointReceiver(true);
    await seedEndpoint(db, { portfolio, url: target.url, orderedDelivery: true });
    await start();
    const streams = rentalStreams({ rentals: 50, perRental: 20, portfolio });
    await publishRounds(db, outbox, streams);
    await eventually(() => expect(distinctEvents(accepted)).toBe(1_000), { timeoutMs: 150_000 });
    expect(target.requests().length).toBeGreaterThan(1_000); // the failures happened
    expect(rentalsOutOfOrder(streams.emitted, firstReceipts(target.requests()))).toEqual([]);
    expect(rentalsOutOfOrder(streams.emitted, firstReceipts(accepted))).toEqual([]);
  }, 180_000);

  it('keeps the order across two replicas, one of them killed with SIGKILL midway', async () => {
    const portfolio = `order-${randomUUID().slice(0, 8)}`;
    const target = endpointReceiver(true);
    await seedEndpoint(db, { portfolio, url: target.url, orderedDelivery: true });
    const [doomed] = [await start(), await start()];
    const streams = rentalStreams({ rentals: 50, perRental: 20, portfolio });
    await publishRounds(db, outbox, streams);
    await eventually(() => expect(distinctEvents(accepted)).toBeGreaterThan(300), { timeoutMs: 120_000 });
    await doomed.kill();
    dispatchers = dispatchers.filter((dispatcher) => dispatcher !== doomed);
    // The killed replica's claims come back when their 60 s lease ends; end them now instead of waiting (the survivor's
    // own claims come back too: at worst a message is sent twice, which the order of first receipts allows).
    await query(db, sql(`UPDATE webhook_messages SET next_attempt_at = now() WHERE claimed AND status = 'pending' -- owner-bypass: a lease ended early`));
    await eventually(() => expect(distinctEvents(accepted)).toBe(1_000), { timeoutMs: 150_000 });
    expect(rentalsOutOfOrder(streams.emitted, firstReceipts(target.requests()))).toEqual([]);
    expect(rentalsOutOfOrder(streams.emitted, firstReceipts(accepted))).toEqual([]);
  }, 240_000);
}
