/**
 * `npm run bench:webhooks`: signatures per second, deliveries per second from one dispatcher process to a
 * local HTTPS receiver, and event-to-delivery latency at 200 events/s through the embedded transport and,
 * when KAFKA_BROKERS is set, through Kafka.
 * Starts its own throwaway PostgreSQL (or uses BENCH_DATABASE_URL) and the built dispatcher as a child process.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createEnvelope, lifecycleEventId, parseEventPayload, parseLifecycleEventId, TOPICS } from '@storage/domain';
import { OutboxPublisher, OutboxRelay } from '@storage/messaging';
import { createDataSource, migrate, startEmbeddedPostgres } from '@storage/persistence';
import { generateSecret, SecretKeyring, signatureHeader, signingKey } from '@storage/webhooks';
import { deliveryBody } from '../fan-out/fan-out';
import { testEvent } from '../fan-out/test-event';

const THROUGHPUT_MESSAGES = Number(process.env.BENCH_MESSAGES ?? 20_000);
const LATENCY_RATE = 200;
const WARM_UP_EVENTS = 200;
const LATENCY_SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Endpoint secrets are stored sealed, as the api writes them; the dispatcher opens them with the same key. */
const SECRET_KEY = { id: 'bench', key: randomBytes(32) };
const keyring = new SecretKeyring([SECRET_KEY]);
const sealedSecret = (endpointId: string) => keyring.seal(generateSecret(), endpointId);

function signaturesPerSecond(): number {
  const key = signingKey(generateSecret());
  const body = deliveryBody(testEvent('bench', 'moved-in', new Date()).payload);
  const count = 200_000;
  const started = process.hrtime.bigint();
  for (let i = 0; i < count; i += 1) signatureHeader([key], `msg_${i}`, 1_700_000_000, body);
  return count / (Number(process.hrtime.bigint() - started) / 1e9);
}

function certificate(dir: string): { key: string; cert: string; certFile: string } {
  const [keyFile, certFile] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
    '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', keyFile, '-out', certFile], { stdio: 'ignore' });
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), certFile };
}

async function main(): Promise<void> {
  const work = mkdtempSync(path.join(tmpdir(), 'bench-webhooks-'));
  const tls = certificate(work);
  const postgres = process.env.BENCH_DATABASE_URL ? undefined : await startEmbeddedPostgres({ dataDir: mkdtempSync(path.join(tmpdir(), 'bench-webhooks-pg-')), port: 54_000 + Math.floor(Math.random() * 1000), ephemeral: true });
  const url = process.env.BENCH_DATABASE_URL ?? postgres!.url();
  await migrate(url);
  const db = await createDataSource({ url, applicationName: 'bench', poolSize: 4 }).initialize();

  const received: number[] = [];
  const latencies: number[] = [];
  const receiver = createServer({ key: tls.key, cert: tls.cert, keepAliveTimeout: 60_000 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const now = Date.now();
      received.push(now);
      const eventId = (JSON.parse(Buffer.concat(chunks).toString()) as { data: { eventId: string }[] }).data[0].eventId;
      // Backlog messages carry no lifecycle eventId; only the latency run's events are timed.
      const parts = parseLifecycleEventId(eventId);
      if (parts) latencies.push(now - parts.epochMs);
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const target = `https://127.0.0.1:${(receiver.address() as AddressInfo).port}/bench`;
  const endpointId = randomUUID();
  await db.query(
    `INSERT INTO webhook_endpoints (id, portfolio, vendor_name, url, description, event_types, secret) VALUES ($1, 'bench', 'bench', $2, 'bench', '{moved-in}', $3)`,
    [endpointId, target, sealedSecret(endpointId)],
  );

  const startDispatcher = async (extraEnv: Record<string, string> = {}): Promise<ChildProcess> => {
    const port = 40_000 + Math.floor(Math.random() * 10_000);
    const child = spawn(process.execPath, [path.join(__dirname, '..', 'main.js')], {
      env: { PATH: process.env.PATH, DATABASE_URL: url, DISPATCHER_PORT: String(port), LOG_LEVEL: 'warn', WEBHOOK_ALLOWED_SUBNETS: '127.0.0.1/32', NODE_EXTRA_CA_CERTS: tls.certFile,
        WEBHOOK_SECRET_KEYS: `${SECRET_KEY.id}:${SECRET_KEY.key.toString('base64')}`, ...extraEnv },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    for (let i = 0; ; i += 1) {
      if ((await fetch(`http://127.0.0.1:${port}/health/ready`).catch(() => undefined))?.status === 200) return child;
      if (i > 300) throw new Error('the dispatcher did not become ready');
      await sleep(100);
    }
  };
  const stopDispatcher = async (child: ChildProcess): Promise<void> => {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  };
  const dispatcher = await startDispatcher();

  // Event to delivery: events committed to the outbox at 200/s, consumed, fanned out, signed and delivered.
  const outbox = new OutboxPublisher('bench');
  const template = testEvent('bench', 'moved-in', new Date()).payload as Record<string, unknown> & { unitRental: Record<string, unknown> };
  const publishAtRate = async (count: number, portfolio = 'bench'): Promise<void> => {
    const begin = Date.now();
    for (let i = 0; i < count; i += 1) {
      const due = begin + (i * 1000) / LATENCY_RATE;
      if (due > Date.now()) await sleep(due - Date.now());
      const occurredAt = new Date();
      const rentalRecordUuid = randomUUID();
      const payload = parseEventPayload('moved-in', { ...template, eventId: lifecycleEventId(rentalRecordUuid, occurredAt, 'moved-in'), unitRental: { ...template.unitRental, rentalRecordUuid } });
      await db.transaction((manager) => outbox.publish(manager, createEnvelope({ type: 'moved-in', payload, occurredAt, portfolio })));
    }
  };
  // Warm-up, not measured: the first TLS connections, JIT and prepared statements of a fresh process.
  await publishAtRate(WARM_UP_EVENTS);
  while (latencies.length < WARM_UP_EVENTS) await sleep(50);
  latencies.length = 0;
  const total = LATENCY_RATE * LATENCY_SECONDS;
  const start = Date.now();
  await publishAtRate(total);
  while (latencies.length < total && Date.now() - start < (LATENCY_SECONDS + 30) * 1000) await sleep(50);
  const sortedLatency = [...latencies].sort((a, b) => a - b);
  // Where the time goes: event commit to fan-out (transport), fan-out to the attempt (delivery engine).
  const [stages] = await db.query<[{ consume50: number; consume99: number; deliver50: number; deliver99: number }]>(
    `WITH t AS (
       SELECT extract(epoch FROM m.created_at) * 1000 - split_part(m.event_id, '-', 6)::bigint AS consume,
              extract(epoch FROM a.attempted_at - m.created_at) * 1000 AS deliver
       FROM webhook_messages m JOIN webhook_attempts a ON a.message_id = m.id
       WHERE m.created_at >= $1)
     SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY consume)::int AS consume50, percentile_cont(0.99) WITHIN GROUP (ORDER BY consume)::int AS consume99,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY deliver)::int AS deliver50, percentile_cont(0.99) WITHIN GROUP (ORDER BY deliver)::int AS deliver99
     FROM t`,
    [new Date(start)],
  );

  // Throughput: a backlog of messages (as after a receiver outage) drained by one dispatcher.
  received.length = 0;
  const body = deliveryBody({ ...template, eventId: 'backlog' });
  await db.query(
    `INSERT INTO webhook_messages (id, endpoint_id, portfolio, event_id, event_type, body, status, attempts, next_attempt_at, created_at)
     SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), $1, 'bench', 'backlog-' || g, 'moved-in', $2, 'pending', 0, now(), now()
     FROM generate_series(1, $3) g`,
    [endpointId, body, THROUGHPUT_MESSAGES],
  );
  const drainStart = Date.now();
  while (received.length < THROUGHPUT_MESSAGES && Date.now() - drainStart < 120_000) await sleep(20);
  const seconds = (Date.now() - drainStart) / 1000;
  // Attempts are recorded in group commits after the receiver answered: give the last one a moment.
  let done = 0;
  for (const deadline = Date.now() + 10_000; done < THROUGHPUT_MESSAGES + WARM_UP_EVENTS + total && Date.now() < deadline; await sleep(100)) {
    [{ done }] = await db.query<[{ done: number }]>(`SELECT count(*)::int AS done FROM webhook_messages WHERE status = 'succeeded'`);
  }

  const signatures = signaturesPerSecond();
  const rows = [
    { measure: 'signatures/s (one core)', value: Math.round(signatures).toLocaleString('en'), target: '>= 100,000' },
    { measure: `deliveries/s (${THROUGHPUT_MESSAGES} backlog, one dispatcher)`, value: Math.round(received.length / seconds).toLocaleString('en'), target: '>= 2,000' },
    { measure: 'recorded as succeeded', value: `${done} of ${THROUGHPUT_MESSAGES + WARM_UP_EVENTS + total}`, target: 'all' },
    { measure: `event->delivery p50 (embedded, ${LATENCY_RATE} events/s, ${total} events)`, value: `${percentile(sortedLatency, 50)} ms`, target: '' },
    { measure: 'event->delivery p99 (embedded)', value: `${percentile(sortedLatency, 99)} ms`, target: '< 100 ms' },
    { measure: 'events delivered in the latency run', value: `${latencies.length} of ${total}`, target: 'all' },
    { measure: 'p50 / p99 event commit -> fan-out (transport)', value: `${stages.consume50} / ${stages.consume99} ms`, target: '' },
    { measure: 'p50 / p99 fan-out -> attempt (delivery engine)', value: `${stages.deliver50} / ${stages.deliver99} ms`, target: '' },
  ];
  await stopDispatcher(dispatcher);

  // The same latency run through Kafka: the outbox relayed to the broker, a dispatcher consuming the topic.
  const brokers = process.env.KAFKA_BROKERS;
  if (brokers) {
    const portfolio = `bench-kafka-${randomUUID().slice(0, 8)}`;
    const kafkaEndpointId = randomUUID();
    await db.query(
      `INSERT INTO webhook_endpoints (id, portfolio, vendor_name, url, description, event_types, secret) VALUES ($1, $2, 'bench', $3, 'bench', '{moved-in}', $4)`,
      [kafkaEndpointId, portfolio, `${target}-kafka`, sealedSecret(kafkaEndpointId)],
    );
    const relay = new OutboxRelay({ service: 'bench', kafkaBrokers: brokers, partitions: 3, databaseUrl: url, topics: TOPICS, batchSize: 500, pollIntervalMs: 50, lagReportIntervalMs: 60_000 });
    await relay.start();
    const kafkaDispatcher = await startDispatcher({ KAFKA_BROKERS: brokers, DISPATCHER_CONSUMER_GROUP: `bench-${randomUUID().slice(0, 8)}` });
    latencies.length = 0;
    await publishAtRate(WARM_UP_EVENTS, portfolio);
    for (const deadline = Date.now() + 60_000; latencies.length < WARM_UP_EVENTS && Date.now() < deadline; ) await sleep(50);
    latencies.length = 0;
    const kafkaStart = Date.now();
    await publishAtRate(total, portfolio);
    while (latencies.length < total && Date.now() - kafkaStart < (LATENCY_SECONDS + 30) * 1000) await sleep(50);
    const sortedKafka = [...latencies].sort((a, b) => a - b);
    rows.push(
      { measure: `event->delivery p50 (Kafka, ${LATENCY_RATE} events/s, ${total} events)`, value: `${percentile(sortedKafka, 50)} ms`, target: '' },
      { measure: 'event->delivery p99 (Kafka)', value: `${percentile(sortedKafka, 99)} ms`, target: '< 250 ms' },
      { measure: 'events delivered in the Kafka latency run', value: `${latencies.length} of ${total}`, target: 'all' },
    );
    await stopDispatcher(kafkaDispatcher);
    await relay.stop();
  }
  console.table(rows);

  receiver.closeAllConnections();
  receiver.close();
  await db.destroy();
  await postgres?.stop();
  rmSync(work, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
