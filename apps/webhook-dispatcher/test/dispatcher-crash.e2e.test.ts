import type { ServerResponse } from 'node:http';
import type { DataSource } from 'typeorm';
import type { EventEnvelope } from '@storage/domain';
import { OutboxPublisher } from '@storage/messaging';
import { createDataSource, query, sql } from '@storage/persistence';
import { createTestDatabase, eventually, type TestDatabase } from '@storage/testing';
import { startDispatcher, type DispatcherProcess } from './support/dispatcher-process';
import { seedEndpoint } from './support/endpoints';
import { sampleEnvelope } from './support/events';
import { makeCertificate, TestReceiver, type ReceivedRequest, type TestCertificate } from './support/receiver';
import { verify } from './support/verify';

const EVENTS = 30;
/** The receiver answers this many deliveries, then holds the rest open: they are in flight when the process dies. */
const ANSWERED_BEFORE_CRASH = 5;

/*
 * A dispatcher killed with SIGKILL (no shutdown hook) while deliveries are in flight and events are still being
 * fanned out: after a restart every event reaches the endpoint, each under one message id (hook-id) however
 * often it is tried, and nothing is fanned out twice.
 */
describe('webhook-dispatcher killed mid-delivery', () => {
  let certificate: TestCertificate;
  let receiver: TestReceiver;
  let database: TestDatabase;
  let db: DataSource;
  const dispatchers: DispatcherProcess[] = [];
  const held: ServerResponse[] = [];
  const outbox = new OutboxPublisher('test-producer');
  const publish = (envelope: EventEnvelope) => db.transaction((manager) => outbox.publish(manager, envelope));

  beforeAll(async () => {
    certificate = await makeCertificate();
    receiver = await new TestReceiver(certificate).start();
    database = await createTestDatabase();
    db = await createDataSource({ url: database.url, applicationName: 'dispatcher-crash-e2e' }).initialize();
  }, 60_000);
  afterAll(async () => {
    for (const dispatcher of dispatchers) await dispatcher.stop();
    await db?.destroy();
    await database?.drop();
    await receiver?.stop();
    certificate?.cleanup();
  });

  const start = async (env: Record<string, string> = {}) => {
    const dispatcher = await startDispatcher({
      DATABASE_URL: database.url,
      WEBHOOK_ALLOWED_SUBNETS: '127.0.0.1/32',
      NODE_EXTRA_CA_CERTS: certificate.certFile,
      ...env,
    });
    dispatchers.push(dispatcher);
    return dispatcher;
  };

  it('loses nothing and duplicates no message across a restart', async () => {
    const { secret } = await seedEndpoint(db, { url: receiver.url('/crash') });
    const answered: ReceivedRequest[] = [];
    receiver.respond = (request, response) => {
      if (answered.length >= ANSWERED_BEFORE_CRASH) return void held.push(response);
      answered.push(request);
      response.statusCode = 204;
      response.end();
    };
    const first = await start();
    const envelopes = Array.from({ length: EVENTS }, () => sampleEnvelope('moved-in'));
    for (const envelope of envelopes) await publish(envelope);
    await eventually(() => expect(held.length).toBeGreaterThan(0), { timeoutMs: 15_000 });

    await first.kill();
    for (const response of held) response.destroy();
    receiver.respond = (request, response) => {
      answered.push(request);
      response.statusCode = 204;
      response.end();
    };
    // The killed process's claims would come back when their 60 s lease ends; end them now instead of waiting.
    await query(db, sql(`UPDATE webhook_messages SET next_attempt_at = now() WHERE status = 'pending' AND next_attempt_at > now()`));
    await start();

    const eventIdOf = (request: ReceivedRequest) => verify(secret, request).data[0]?.eventId;
    await eventually(() => expect(new Set(answered.map(eventIdOf))).toEqual(new Set(envelopes.map((envelope) => envelope.eventId))), {
      timeoutMs: 30_000,
    });
    const hookIdsByEvent = new Map<string, Set<string>>();
    for (const request of receiver.requests.filter((r) => r.path === '/crash')) {
      const eventId = eventIdOf(request) ?? 'none';
      hookIdsByEvent.set(eventId, (hookIdsByEvent.get(eventId) ?? new Set()).add(String(request.headers['hook-id'])));
    }
    expect([...hookIdsByEvent.values()].every((ids) => ids.size === 1)).toBe(true);
    const [{ messages }] = await query(db, sql<{ messages: number }>(`SELECT count(*)::int AS messages FROM webhook_messages`));
    expect(messages).toBe(EVENTS);
    await eventually(async () => {
      const [{ delivered }] = await query(db, sql<{ delivered: number }>(`SELECT count(*)::int AS delivered FROM webhook_messages WHERE status = 'succeeded'`));
      expect(delivered).toBe(EVENTS);
    });
  }, 90_000);

  it('sends again, under the same hook-id, a message the receiver answered but the process died before recording', async () => {
    // Alone with the database: the dispatcher the test before restarted would record the attempt in its place.
    for (const running of dispatchers.splice(0)) await running.stop();
    const { id: endpointId, secret } = await seedEndpoint(db, { url: receiver.url('/unrecorded') });
    receiver.respond = (_request, response) => {
      response.statusCode = 204;
      response.end();
    };
    // A record wait far longer than the test's reaction, so the kill lands inside it on any machine.
    const dispatcher = await start({ WEBHOOK_RECORD_WAIT_MS: '10000' });
    const envelope = sampleEnvelope('moved-in');
    await publish(envelope);
    const received = () => receiver.requests.filter((r) => r.path === '/unrecorded' && verify(secret, r).data[0]?.eventId === envelope.eventId);
    await eventually(() => expect(received()).toHaveLength(1), { timeoutMs: 15_000, intervalMs: 10 });
    // Killed within the wait before finished attempts are recorded: the answer is known only to the dead process.
    await dispatcher.kill();
    const MESSAGE = sql<{ status: string; attempts: number }, [string, string]>(
      `SELECT status, attempts FROM webhook_messages WHERE event_id = $1 AND endpoint_id = $2`,
    );
    expect(await query(db, MESSAGE, [envelope.eventId, endpointId])).toEqual([{ status: 'pending', attempts: 0 }]);

    await query(db, sql(`UPDATE webhook_messages SET next_attempt_at = now() WHERE status = 'pending' AND next_attempt_at > now()`));
    await start();
    await eventually(() => expect(received()).toHaveLength(2), { timeoutMs: 30_000 });
    expect(new Set(received().map((request) => String(request.headers['hook-id']))).size).toBe(1);
    await eventually(async () => expect(await query(db, MESSAGE, [envelope.eventId, endpointId])).toEqual([{ status: 'succeeded', attempts: 1 }]));
  }, 90_000);
});
