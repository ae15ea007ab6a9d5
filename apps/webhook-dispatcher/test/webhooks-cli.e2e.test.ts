import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { DataSource } from 'typeorm';
import type { EventEnvelope } from '@storage/domain';
import { OutboxPublisher } from '@storage/messaging';
import { createDataSource, query, sql } from '@storage/persistence';
import { createTestDatabase, eventually, type TestDatabase } from '@storage/testing';
import { enableEndpoint } from '@storage/webhooks';
import { startDispatcher, type DispatcherProcess } from './support/dispatcher-process';
import { removeAllEndpoints, seedEndpoint } from './support/endpoints';
import { sampleEnvelope } from './support/events';
import { makeCertificate, TestReceiver, type TestCertificate } from './support/receiver';
import { verify } from './support/verify';

const CLI = path.join(__dirname, '..', 'dist', 'cli.js');
const REPLAY_CLI = path.join(__dirname, '..', '..', '..', 'packages', 'messaging', 'dist', 'cli.js');

/** The dispatcher's CLI as `npm run cli -- webhooks ...` runs it; asynchronous, so the receiver here answers meanwhile. */
function runCli(databaseUrl: string, ...args: string[]): Promise<{ status: number | null; output: string }> {
  return run(databaseUrl, CLI, 'webhooks', ...args);
}

function run(databaseUrl: string, entry: string, ...args: string[]): Promise<{ status: number | null; output: string }> {
  const child = spawn(process.execPath, [entry, ...args], { env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl } });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve) => child.once('close', (status) => resolve({ status, output })));
}

const ATTEMPTS = sql<{ messageId: string; statusCode: number | null }, [string]>(
  `SELECT message_id AS "messageId", status_code AS "statusCode" FROM webhook_attempts WHERE endpoint_id = $1 ORDER BY attempted_at, id`,
);
const MESSAGES = sql<{ id: string; eventId: string; status: string }, [string]>(
  `SELECT id, event_id AS "eventId", status FROM webhook_messages WHERE endpoint_id = $1 ORDER BY emission_order`,
);

/** `webhooks resend` and `webhooks recover` with the dispatcher running (embedded transport). */
describe('webhooks resend and recover (CLI, dispatcher running)', () => {
  let certificate: TestCertificate;
  let receiver: TestReceiver;
  let database: TestDatabase;
  let db: DataSource;
  let dispatcher: DispatcherProcess;
  const outbox = new OutboxPublisher('test-producer');
  const publish = (envelope: EventEnvelope) => db.transaction((manager) => outbox.publish(manager, envelope));
  const requestsTo = (path: string) => receiver.requests.filter((r) => r.path === path);

  beforeAll(async () => {
    certificate = await makeCertificate();
    receiver = await new TestReceiver(certificate).start();
    database = await createTestDatabase();
    db = await createDataSource({ url: database.url, applicationName: 'webhooks-cli-e2e' }).initialize();
    dispatcher = await startDispatcher({ DATABASE_URL: database.url, WEBHOOK_ALLOWED_SUBNETS: '127.0.0.1/32', NODE_EXTRA_CA_CERTS: certificate.certFile });
  }, 60_000);
  afterAll(async () => {
    await dispatcher?.stop();
    await db?.destroy();
    await database?.drop();
    await receiver?.stop();
    certificate?.cleanup();
  });
  beforeEach(async () => {
    receiver.requests.length = 0;
    receiver.respond = (_req, res) => {
      res.statusCode = 204;
      res.end();
    };
    await removeAllEndpoints(db);
  });

  it('resends a delivered message as a new attempt under the same hook-id, and says how it went', async () => {
    const { id: endpointId, secret } = await seedEndpoint(db, { url: receiver.url('/resend') });
    const event = sampleEnvelope('moved-in');
    await publish(event);
    await eventually(() => expect(requestsTo('/resend')).toHaveLength(1), { timeoutMs: 15_000 });
    const [message] = await query(db, MESSAGES, [endpointId]);
    await eventually(async () => expect(await query(db, ATTEMPTS, [endpointId])).toHaveLength(1));

    const { status, output } = await runCli(database.url, 'resend', message.id);
    expect({ status, output }).toEqual({ status: 0, output: expect.stringContaining(`resend requested`) });
    expect(output).toContain('queued again by the dispatcher');
    expect(output).toMatch(/attempted at .*: delivered \(HTTP 204, \d+ ms\)/);

    expect(requestsTo('/resend')).toHaveLength(2);
    const [first, again] = requestsTo('/resend');
    expect(again.headers['hook-id']).toBe(message.id);
    expect(again.headers['hook-id']).toBe(first.headers['hook-id']);
    expect(verify(secret, again).data[0].eventId).toBe(event.eventId);
    expect(await query(db, ATTEMPTS, [endpointId])).toEqual([
      { messageId: message.id, statusCode: 204 },
      { messageId: message.id, statusCode: 204 },
    ]);
  }, 60_000);

  it('refuses an unknown message id, exit 2, requesting nothing', async () => {
    const before = await query(db, sql<{ n: number }>(`SELECT count(*)::int AS n FROM outbox`));
    const { status, output } = await runCli(database.url, 'resend', 'msg_nosuchmessage');
    expect(status).toBe(2);
    expect(output).toContain('unknown message id "msg_nosuchmessage"');
    expect(await query(db, sql<{ n: number }>(`SELECT count(*)::int AS n FROM outbox`))).toEqual(before);
  }, 30_000);

  it("recovers an endpoint's failed messages since the time, each under its first hook-id, and none older", async () => {
    let gone = true;
    // Answers wait until both messages exist: the first 410 disables the endpoint, which gets no message after it.
    let answer: () => void = () => undefined;
    const answering = new Promise<void>((resolve) => (answer = resolve));
    receiver.respond = (_request, res) => {
      void answering.then(() => {
        res.statusCode = gone ? 410 : 204;
        res.end();
      });
    };
    const { id: endpointId, secret } = await seedEndpoint(db, { url: receiver.url('/recover') });
    const old = sampleEnvelope('moved-out');
    const lost = sampleEnvelope('rent-change');
    await publish(old);
    await publish(lost);
    await eventually(async () => expect(await query(db, MESSAGES, [endpointId])).toHaveLength(2), { timeoutMs: 15_000 });
    answer();
    // 410 Gone fails the message at once and disables the endpoint; the other one waits as failed too.
    await eventually(async () => expect((await query(db, MESSAGES, [endpointId])).map((m) => m.status)).toEqual(['failed', 'failed']), { timeoutMs: 15_000 });
    const [older, recent] = await query(db, MESSAGES, [endpointId]);
    const since = new Date(Date.now() - 60_000);
    await query(db, sql<never, [string, Date]>(`UPDATE webhook_messages SET created_at = $2 WHERE id = $1`), [older.id, new Date(since.getTime() - 1000)]);
    gone = false;
    await enableEndpoint(db, 'acme', endpointId);
    const tried = requestsTo('/recover').length;
    const attemptsBefore = {
      recent: (await query(db, ATTEMPTS, [endpointId])).filter((a) => a.messageId === recent.id).map((a) => a.statusCode),
      older: (await query(db, ATTEMPTS, [endpointId])).filter((a) => a.messageId === older.id).map((a) => a.statusCode),
    };

    const { status, output } = await runCli(database.url, 'recover', '--endpoint', endpointId, '--since', since.toISOString());
    expect({ status, output }).toEqual({ status: 0, output: expect.stringContaining(`1 failed message(s) since ${since.toISOString()}`) });
    expect(output).toContain('queued again by the dispatcher');

    await eventually(() => expect(requestsTo('/recover')).toHaveLength(tried + 1), { timeoutMs: 15_000 });
    const resent = requestsTo('/recover').at(-1)!;
    expect(resent.headers['hook-id']).toBe(recent.id);
    expect(verify(secret, resent).data[0].eventId).toBe(recent.eventId);
    await eventually(async () =>
      expect(await query(db, MESSAGES, [endpointId])).toEqual([
        { ...older, status: 'failed' },
        { ...recent, status: 'succeeded' },
      ]),
    );
    const attemptsOf = async (id: string) => (await query(db, ATTEMPTS, [endpointId])).filter((a) => a.messageId === id).map((a) => a.statusCode);
    expect(await attemptsOf(recent.id)).toEqual([...attemptsBefore.recent, 204]);
    expect(await attemptsOf(older.id)).toEqual(attemptsBefore.older);
  }, 60_000);

  it('refuses an unknown endpoint and a time that is not one, exit 2', async () => {
    const unknown = await runCli(database.url, 'recover', '--endpoint', randomUUID(), '--since', '2025-01-01T00:00:00Z');
    expect(unknown.status).toBe(2);
    expect(unknown.output).toContain('unknown endpoint id');
    const badTime = await runCli(database.url, 'recover', '--endpoint', randomUUID(), '--since', 'yesterday');
    expect(badTime.status).toBe(2);
    expect(badTime.output).toContain('an ISO 8601 time is needed');
  }, 30_000);

  it('replays while the dispatcher runs: the running consumer moves its own position; what the replay asks is sent again once, nothing else twice, nothing lost', async () => {
    const { id: endpointId } = await seedEndpoint(db, { url: receiver.url('/replay') });
    const from = new Date(Date.now() - 1000);
    const replayed = sampleEnvelope('moved-in');
    await publish(replayed);
    await eventually(() => expect(requestsTo('/replay')).toHaveLength(1), { timeoutMs: 15_000 });

    const { status, output } = await run(database.url, REPLAY_CLI, 'replay', '--group', 'webhook-dispatcher', '--from', from.toISOString(), '--redeliver');
    expect({ status, output }).toEqual({ status: 0, output: expect.stringContaining('is running: replay #') });
    expect(output).toContain('applied by the running consumer');

    const after = sampleEnvelope('moved-out');
    await publish(after);
    const eventIds = () => requestsTo('/replay').map((r) => (JSON.parse(r.body) as { data: { eventId: string }[] }).data[0].eventId);
    await eventually(() => expect(eventIds().sort()).toEqual([replayed.eventId, replayed.eventId, after.eventId].sort()), { timeoutMs: 15_000 });
    // The replayed event's message sent again (a replay with --redeliver sends again), the later event's once.
    await eventually(async () => expect((await query(db, MESSAGES, [endpointId])).map((m) => m.status)).toEqual(['succeeded', 'succeeded']));
    expect(eventIds().filter((id) => id === after.eventId)).toHaveLength(1);
  }, 60_000);
});
