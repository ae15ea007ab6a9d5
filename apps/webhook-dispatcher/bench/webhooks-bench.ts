/**
 * `npm run bench:webhooks`: end to end, from the commit of a lifecycle event (an outbox row written by
 * OutboxPublisher in a producer transaction) to its arrival at a local HTTPS receiver, through the consumer,
 * the fan-out and the delivery engine of the built dispatcher (and through Kafka with an OutboxRelay when
 * KAFKA_BROKERS is set). Prints deliveries/s with 1 and 10 endpoints, p50/p99 at 100 and 500 events/s (open
 * loop), CPU seconds per 10k deliveries at 100 events/s (services and PostgreSQL, from /proc) and the idle CPU
 * of the services; isolation (a healthy endpoint's latency beside endpoints that never answer, and alone) and the cost
 * of order (deliveries/s to 1 endpoint with every event its own rental, and with 100 events per rental); the portal's
 * HTML pages (p50/p99 with 100,000 messages in the log). Starts a throwaway PostgreSQL; the api and the delinquency scheduler run beside the
 * dispatcher when they are built, as they would in production (both consume or watch the same outbox).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { TENANT_LIFECYCLE_TOPIC, TOPICS, WEBHOOK_COMMANDS_TOPIC, webhookDeliveryBody } from '@storage/domain';
import { createDataSource, migrate, query, sql, startEmbeddedPostgres } from '@storage/persistence';
import { certificate, loadAverage as load, percentile, postgresCpuSeconds, postmasterPid, processCpuSeconds, Receiver, wallClock } from '@storage/testing';
import { generateSecret, SecretKeyring, signatureHeader, signingKey } from '@storage/webhooks';
import { testEvent } from '../dist/fan-out/test-event';
import { HangingReceivers } from './hanging';
import { PORTAL_MESSAGES, timePortalPages } from './portal';
import { newRentalEach, Producer, rentalsInTurn, type RentalOf } from './producer';
import { startRelay } from './relay';
import { isBuilt, startService, type Service } from './services';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const THROUGHPUT_EVENTS = Number(process.env.BENCH_MESSAGES ?? 10_000);
const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 30);
// Seconds at 100 events/s before the CPU row is measured (start-up warm-up and first window included): V8 compiles
// the hot path of freshly started services meanwhile, and the idle api and scheduler do some start-up work once,
// 20 - 50 s after they start; a running service has done both long before.
const WARM_SECONDS = Number(process.env.BENCH_WARM_SECONDS ?? 60);
// Seconds at 100 events/s beside the hanging endpoints: the delivery timeout (15 s) passes at least twice, so their
// lanes fill, time out and fill again while the healthy endpoint is measured.
const ISOLATION_SECONDS = Number(process.env.BENCH_ISOLATION_SECONDS ?? 40);
const ISOLATION_WARM_SECONDS = 10;
const HANGING_ENDPOINTS = 10;
const EVENTS_PER_RENTAL = 100;
// `cpu`: only the 100 events/s rows (latency and CPU); `kafka`: only the Kafka rows; `isolation`, `order`, `portal`: only
// those rows; unset: every row.
const ONLY = process.env.BENCH_ONLY ?? '';
if (!['', 'cpu', 'kafka', 'isolation', 'order', 'portal'].includes(ONLY)) {
  throw new Error(`BENCH_ONLY must be cpu, kafka, isolation, order or portal, not ${ONLY}`);
}
if (ONLY === 'kafka' && !process.env.KAFKA_BROKERS) throw new Error('BENCH_ONLY=kafka needs KAFKA_BROKERS');
const START_UP_WARM_SECONDS = 3;
// Enough transactions in flight that the producers outpace the dispatcher (each commits in three round trips).
const PRODUCERS = 32;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const started = performance.now();
const progress = (line: string): void => console.log(`[${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}`);
const SECRET_KEY = { id: 'bench', key: randomBytes(32) };
const keyring = new SecretKeyring([SECRET_KEY]);

interface Row {
  measure: string;
  value: string;
  target: string;
  load: string;
}

/** What one phase is waiting for: deliveries counted and timed from their event's commit. */
class Phase {
  readonly latencies: number[] = [];
  /** When each delivery arrived, in the order of `latencies`. */
  private readonly arrivals: number[] = [];
  lastArrival = 0;
  constructor(readonly name: string) {}

  add(latency: number, at: number): void {
    this.latencies.push(latency);
    this.arrivals.push(at);
    this.lastArrival = at;
  }

  async arrived(expected: number, timeoutMs: number): Promise<boolean> {
    const deadline = performance.now() + timeoutMs;
    let reported = performance.now();
    while (this.latencies.length < expected) {
      if (performance.now() > deadline) return false;
      if (performance.now() - reported > 5_000) {
        progress(`  ${this.name}: ${this.latencies.length} of ${expected} deliveries`);
        reported = performance.now();
      }
      await sleep(10);
    }
    return true;
  }

  summary(): string {
    const sorted = [...this.latencies].sort((a, b) => a - b);
    return `${percentile(sorted, 50).toFixed(1)} / ${percentile(sorted, 99).toFixed(1)} ms`;
  }

  p99(): number {
    return percentile(
      [...this.latencies].sort((a, b) => a - b),
      99,
    );
  }

  /** p99 per `windowMs` of arrivals from the first: shows whether a moment of the run (a timeout firing) stands out. */
  p99ByWindow(windowMs: number): number[] {
    const windows: number[][] = [];
    this.arrivals.forEach((at, i) => (windows[Math.floor((at - this.arrivals[0]) / windowMs)] ??= []).push(this.latencies[i]));
    return [...windows].map((window = []) =>
      percentile(
        window.sort((a, b) => a - b),
        99,
      ),
    );
  }
}

/** The dispatcher's new consumer group starts at the topics' ends: the broker keeps earlier runs' events, which it would read first. */
async function startGroupAtEnd(brokers: string, groupId: string): Promise<void> {
  const admin = new Kafka({ brokers: brokers.split(','), logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  try {
    for (const topic of [TENANT_LIFECYCLE_TOPIC, WEBHOOK_COMMANDS_TOPIC]) {
      const ends = await admin.fetchTopicOffsets(topic);
      await admin.setOffsets({ groupId, topic, partitions: ends.map(({ partition, high }) => ({ partition, offset: high })) });
    }
  } finally {
    await admin.disconnect();
  }
}

function signaturesPerSecond(): number {
  const key = signingKey(generateSecret());
  const body = webhookDeliveryBody(testEvent('bench', 'moved-in', new Date()).payload, { test: false });
  const count = 100_000;
  const begin = performance.now();
  for (let i = 0; i < count; i += 1) signatureHeader([key], `msg_${i}`, 1_700_000_000, body);
  return count / ((performance.now() - begin) / 1000);
}

async function main(): Promise<void> {
  const work = mkdtempSync(path.join(tmpdir(), 'bench-webhooks-'));
  const tls = await certificate(work);
  // Its own directory: under root the server runs as the postgres user, which must reach it.
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-webhooks-pg-'));
  progress(`starting PostgreSQL (load average ${load()})`);
  const postgres = await startEmbeddedPostgres({ dataDir, port: 54_000 + Math.floor(Math.random() * 1000), ephemeral: true });
  const url = postgres.url();
  await migrate(url);
  const pgPid = postmasterPid(path.join(dataDir, 'postgres'));
  const db = await createDataSource({ url, applicationName: 'bench-producer', poolSize: PRODUCERS + 4 }).initialize();

  const commits = new Map<string, number>();
  let phase = new Phase('none');
  const receiver = new Receiver(tls, ({ eventId }, at) => {
    const committed = commits.get(eventId);
    if (committed === undefined) return;
    phase.add(at - committed, at);
  });
  const origin = await receiver.listen();
  /** An endpoint of `portfolio` at `url`, subscribed to the events the producer commits, with the default delivery settings. */
  const endpoint = async (portfolio: string, url: string): Promise<void> => {
    const id = randomUUID();
    await query(
      db,
      sql(
        `INSERT INTO webhook_endpoints (id, portfolio, vendor_name, url, description, event_types, secret) VALUES ($1, $2, $3, $4, 'bench', '{moved-in}', $5)`,
      ),
      // A vendor has one endpoint per portfolio.
      [id, portfolio, `bench-${id}`, url, keyring.seal(generateSecret(), id)],
    );
  };
  const endpoints = async (portfolio: string, count: number): Promise<void> => {
    for (let i = 0; i < count; i += 1) await endpoint(portfolio, `${origin}/${portfolio}/${i}`);
  };
  const commonEnv = {
    DATABASE_URL: url,
    WEBHOOK_ALLOWED_SUBNETS: '127.0.0.1/32',
    NODE_EXTRA_CA_CERTS: tls.certFile,
    WEBHOOK_SECRET_KEYS: `${SECRET_KEY.id}:${SECRET_KEY.key.toString('base64')}`,
    DATA_DIR: work,
  };
  const rows: Row[] = [];
  const row = (measure: string, value: string, target = ''): void => {
    rows.push({ measure, value, target, load: load() });
    progress(`${measure}: ${value}`);
  };

  const startServices = async (env: Record<string, string> = {}): Promise<Service[]> => {
    const services = [await startService('webhook-dispatcher', 'DISPATCHER_PORT', { ...commonEnv, ...env })];
    if (!env.KAFKA_BROKERS) {
      if (isBuilt('api')) services.push(await startService('api', 'API_PORT', commonEnv));
      if (isBuilt('delinquency-scheduler')) services.push(await startService('delinquency-scheduler', 'SCHEDULER_PORT', commonEnv));
    }
    progress(`running ${services.map((s) => s.name).join(', ')}`);
    return services;
  };
  const cpu = (services: Service[]) => ({
    each: services.map((s) => processCpuSeconds(s.pid)),
    services: services.reduce((sum, s) => sum + processCpuSeconds(s.pid), 0),
    postgres: postgresCpuSeconds(pgPid),
  });

  /** CPU seconds so far of the backends serving the bench's producers, by pid (they live as long as the pool keeps them). */
  const producerBackends = async (): Promise<Map<number, number>> => {
    const rows = await query(db, sql<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE application_name = 'bench-producer'`));
    return new Map(rows.map(({ pid }) => [pid, processCpuSeconds(pid)]));
  };

  /** Events at `rate`/s for `seconds`, open loop; returns the phase and the CPU it cost. */
  const paced = async (producer: Producer, name: string, portfolio: string, rate: number, seconds: number, services: Service[]) => {
    phase = new Phase(name);
    const before = cpu(services);
    const producersBefore = await producerBackends();
    const count = rate * seconds;
    progress(`${name}: ${count} events at ${rate}/s`);
    await producer.paced(portfolio, rate, count);
    const complete = await phase.arrived(count, 60_000);
    await sleep(300); // the last attempts are recorded just after they arrive
    const after = cpu(services);
    const producersAfter = await producerBackends();
    const producers = [...producersAfter].reduce((sum, [pid, seconds]) => sum + seconds - (producersBefore.get(pid) ?? 0), 0);
    const each = services.map((s, i) => `${s.name} ${(after.each[i] - before.each[i]).toFixed(2)} s`).join(', ');
    return { phase, complete, count, each, cpu: { services: after.services - before.services, postgres: after.postgres - before.postgres, producers } };
  };

  /**
   * Where a paced run's latency went, from the rows (database clock, millisecond resolution): from the outbox row's
   * transaction to the fan-out's message, then to the attempt. From the outbox row, not the event's time: a producer
   * waiting for a pooled connection (under load) is not the dispatcher's. (The relay keeps a position, not a time per
   * row: through Kafka, the first stage includes the relay.)
   */
  const stageRow = async (portfolio: string): Promise<void> => {
    const [stages] = await query(
      db,
      sql<{ consume: number[]; deliver: number[] }, [string]>(`WITH t AS (
         SELECT extract(epoch FROM m.created_at - o.created_at) * 1000 AS consume,
                extract(epoch FROM a.attempted_at - m.created_at) * 1000 AS deliver
         FROM webhook_messages m JOIN outbox o ON o.event_id = m.event_id JOIN webhook_attempts a ON a.message_id = m.id WHERE m.portfolio = $1)
       SELECT percentile_cont('{0.5, 0.99}'::float8[]) WITHIN GROUP (ORDER BY consume) AS consume,
              percentile_cont('{0.5, 0.99}'::float8[]) WITHIN GROUP (ORDER BY deliver) AS deliver
       FROM t`),
      [portfolio],
    );
    const ms = (values: number[]) => values.map((v) => Math.round(v)).join(', ');
    row('  of which outbox row -> fan-out / fan-out -> attempt, p50, p99', `${ms(stages.consume)} / ${ms(stages.deliver)} ms`);
  };

  type PacedRun = Awaited<ReturnType<typeof paced>>;
  const per10k = (run: PacedRun, seconds: number) => ((seconds * 10_000) / run.phase.latencies.length).toFixed(1);
  const cpuSplit = (run: PacedRun) =>
    `${per10k(run, run.cpu.services + run.cpu.postgres)} (${per10k(run, run.cpu.services)} + ${per10k(run, run.cpu.postgres)})`;
  const stopAll = async (services: Service[]): Promise<void> => {
    for (const service of services) await service.stop();
  };

  /** `events` committed as fast as the producers can, event i of rental `rentalOf(i)`: deliveries/s from the first commit to the last arrival. */
  const burst = async (producer: Producer, name: string, portfolio: string, events: number, perEvent: number, services: Service[], rentalOf?: RentalOf) => {
    phase = new Phase(name);
    progress(`${name}: ${events} events committed by ${PRODUCERS} producers, ${events * perEvent} deliveries`);
    const [before, benchBefore] = [cpu(services), process.cpuUsage()];
    const begin = wallClock();
    await producer.burst(portfolio, events, PRODUCERS, rentalOf);
    const produced = events / ((wallClock() - begin) / 1000);
    const complete = await phase.arrived(events * perEvent, 180_000);
    const rate = phase.latencies.length / ((phase.lastArrival - begin) / 1000);
    const [after, bench] = [cpu(services), process.cpuUsage(benchBefore)];
    const each = services.map((s, i) => `${s.name} ${(after.each[i] - before.each[i]).toFixed(1)} s`).join(', ');
    const wall = ((wallClock() - begin) / 1000).toFixed(1);
    progress(
      `  CPU over ${wall} s: bench (producers, receiver) ${((bench.user + bench.system) / 1e6).toFixed(1)} s, ${each}, PostgreSQL ${(after.postgres - before.postgres).toFixed(1)} s`,
    );
    progress(`  ${Math.round(rate)} deliveries/s${complete ? '' : ' (INCOMPLETE)'}, producers committed ${Math.round(produced)} events/s`);
    return { rate, produced, complete };
  };
  const throughput = async (producer: Producer, name: string, portfolio: string, events: number, perEvent: number, target: string, services: Service[]) => {
    const { rate, produced, complete } = await burst(producer, name, portfolio, events, perEvent, services);
    row(
      `deliveries/s, ${perEvent} endpoint(s) (${events * perEvent} deliveries${complete ? '' : ', INCOMPLETE'}; producers committed ${Math.round(produced)} events/s)`,
      Math.round(rate).toLocaleString('en'),
      target,
    );
  };

  // Embedded: the dispatcher reads the outbox as its log.
  if (ONLY === '' || ONLY === 'cpu') await embedded();
  if (ONLY === '' || ONLY === 'isolation') await isolation();
  if (ONLY === '' || ONLY === 'order') await costOfOrder();
  if (ONLY === '' || ONLY === 'portal') {
    progress(`portal: filling a log of ${PORTAL_MESSAGES.toLocaleString('en')} messages`);
    for (const timing of await timePortalPages(db, keyring, commonEnv)) {
      row(
        `portal ${timing.page}, p50 / p99 (${PORTAL_MESSAGES.toLocaleString('en')} messages)`,
        `${timing.p50.toFixed(1)} / ${timing.p99.toFixed(1)} ms`,
        'p99 < 100 ms',
      );
    }
  }

  async function embedded(): Promise<void> {
    const services = await startServices();
    const producer = new Producer(db, 'bench', (eventId, at) => commits.set(eventId, at));
    for (const [portfolio, count] of [
      ['warm', 1],
      ['p100', 1],
      ['p100-settled', 1],
      ['p500', 1],
      ['t1', 1],
      ['t10', 10],
    ] as const)
      await endpoints(portfolio, count);

    // Warm-up, not measured: first TLS connections, prepared statements of fresh processes.
    const warm = await paced(producer, 'warm-up', 'warm', 100, START_UP_WARM_SECONDS, services);
    if (!warm.complete) throw new Error('the warm-up events were not all delivered');

    const at100 = await paced(producer, 'embedded 100/s', 'p100', 100, SECONDS * 2, services);
    row(
      `commit -> delivery p50 / p99, embedded, 100 events/s, first ${SECONDS * 2} s of fresh services (${at100.phase.latencies.length} of ${at100.count})`,
      at100.phase.summary(),
      'p99 < 25 ms',
    );
    await stageRow('p100');
    // The first window of fresh services: V8 is still compiling their hot path (its compiler threads are busy and
    // the dispatcher's CPU per event falls by about a third over the first 3,000 events), which a service pays once.
    const fresh = `first ${SECONDS * 2} s of fresh services, after ${START_UP_WARM_SECONDS} s at the same rate`;
    row(`CPU s per 10k deliveries at 100 events/s, ${fresh}: services + PostgreSQL`, `${cpuSplit(at100)}, producers ${per10k(at100, at100.cpu.producers)}`);
    progress(`  CPU of the services in that run: ${at100.each}`);
    // The rest of the warm-up, in windows whose cost shows it settling.
    for (let ran = START_UP_WARM_SECONDS + SECONDS * 2; ran < WARM_SECONDS; ran += 10) {
      const window = await paced(producer, 'warm-up, same rate', 'warm', 100, Math.min(10, WARM_SECONDS - ran), services);
      progress(`  CPU s per 10k deliveries in that window: ${cpuSplit(window)} (${window.each})`);
    }
    const settled = await paced(producer, 'embedded 100/s, settled', 'p100-settled', 100, SECONDS * 2, services);
    row(
      `CPU s per 10k deliveries at 100 events/s, ${SECONDS * 2} s after ${Math.max(WARM_SECONDS, START_UP_WARM_SECONDS + SECONDS * 2)} s at the same rate: services + PostgreSQL`,
      cpuSplit(settled),
      '<= 20',
    );
    progress(`  CPU of the services in that run: ${settled.each}; its commit -> delivery p50 / p99: ${settled.phase.summary()}`);
    row('  of which PostgreSQL serving the producers (their BEGIN, INSERT and NOTIFY, COMMIT; standing for the api)', per10k(settled, settled.cpu.producers));
    if (ONLY === 'cpu') return stopAll(services);

    // Unmeasured: going from 100 to 500 events/s opens TLS and database connections (about 1.5 s of backlog).
    await paced(producer, 'warm-up at 500/s', 'warm', 500, 2, services);
    const at500 = await paced(producer, 'embedded 500/s', 'p500', 500, SECONDS, services);
    row(`commit -> delivery p50 / p99, embedded, 500 events/s (${at500.phase.latencies.length} of ${at500.count})`, at500.phase.summary(), 'p99 < 100 ms');

    progress(`idle: ${IDLE_SECONDS} s with nothing to do`);
    // About 40 s after a load V8's memory reducer runs a few full collections (0.2 - 0.4 CPU s), once: idle is after.
    await sleep(60_000);
    const idleBefore = cpu(services);
    await sleep(IDLE_SECONDS * 1000);
    const idleAfter = cpu(services);
    const perMinute = (seconds: number) => ((seconds * 60) / IDLE_SECONDS).toFixed(3);
    row(`idle CPU s per minute: ${services.map((s) => s.name).join(' + ')}`, perMinute(idleAfter.services - idleBefore.services), '< 0.1');
    progress(`  of which ${services.map((s, i) => `${s.name} ${perMinute(idleAfter.each[i] - idleBefore.each[i])}`).join(', ')}`);
    row('idle CPU s per minute: PostgreSQL (all its processes)', perMinute(idleAfter.postgres - idleBefore.postgres));

    await throughput(producer, '1 endpoint', 't1', THROUGHPUT_EVENTS, 1, '>= 1,200', services);
    await throughput(producer, '10 endpoints', 't10', Math.round(THROUGHPUT_EVENTS / 5), 10, '>= 3,000', services);
    await stopAll(services);
  }

  /**
   * Isolation: a healthy endpoint's commit -> delivery at 100 events/s alone, then beside HANGING_ENDPOINTS endpoints
   * of its portfolio, subscribed to the same events, that never answer, so that every event goes to all of them.
   */
  async function isolation(): Promise<void> {
    const services = await startServices();
    const producer = new Producer(db, 'bench', (eventId, at) => commits.set(eventId, at));
    const portfolio = 'isolation';
    await endpoint(portfolio, `${origin}/${portfolio}/healthy`);
    // As the latency rows are warmed (connections, prepared statements, V8 compiling the hot path), so that the row
    // alone is not the fresh services' first seconds, which would flatter the ratio.
    await paced(producer, 'isolation warm-up', portfolio, 100, ISOLATION_WARM_SECONDS, services);
    const alone = await paced(producer, 'isolation, healthy endpoint alone', portfolio, 100, SECONDS * 2, services);
    const hanging = new HangingReceivers(tls, HANGING_ENDPOINTS);
    for (const hangingOrigin of await hanging.origins()) await endpoint(portfolio, `${hangingOrigin}/${portfolio}/hanging`);
    const beside = await paced(producer, `isolation, beside ${HANGING_ENDPOINTS} hanging endpoints`, portfolio, 100, ISOLATION_SECONDS, services);
    row(
      `healthy endpoint alone: commit -> delivery p50 / p99, 100 events/s, ${SECONDS * 2} s (${alone.phase.latencies.length} of ${alone.count})`,
      alone.phase.summary(),
    );
    row(
      `same endpoint beside ${HANGING_ENDPOINTS} that never answer, 100 events/s to each, ${ISOLATION_SECONDS} s (${beside.phase.latencies.length} of ${beside.count})`,
      beside.phase.summary(),
      'p99 < 50 ms',
    );
    row('  its p99 beside them / alone', `${(beside.phase.p99() / alone.phase.p99()).toFixed(2)} x`, '<= 2 x');
    const windows = beside.phase.p99ByWindow(10_000).map((p99) => p99.toFixed(1));
    progress(`  its p99 per 10 s beside them: ${windows.join(', ')} ms`);
    await healthyStages(portfolio);
    const cpuOf = (run: PacedRun) => `${run.each}, PostgreSQL ${run.cpu.postgres.toFixed(2)} s`;
    progress(`  CPU alone (${SECONDS * 2} s): ${cpuOf(alone)}; beside them (${ISOLATION_SECONDS} s): ${cpuOf(beside)}`);
    await hangingRow(portfolio, hanging);
    // Disabled, so that their backlog (every event they were sent, timing out) holds no slot of a later section.
    await query(db, sql(`UPDATE webhook_endpoints SET disabled_at = now(), disabled_reason = 'bench' WHERE portfolio = $1`), [portfolio]);
    await hanging.close();
    await stopAll(services);
  }

  /**
   * Where the healthy endpoint's time went beside the hanging ones, per 10 s of the run (database clock, as
   * `stageRow`): p99 of outbox row -> fan-out and of fan-out -> attempt, so a slow window says which side it was.
   */
  async function healthyStages(portfolio: string): Promise<void> {
    const windows = await query(
      db,
      sql<{ w: string; consume: number; deliver: number }, [string]>(`WITH t AS (
         SELECT o.created_at, extract(epoch FROM m.created_at - o.created_at) * 1000 AS consume,
                extract(epoch FROM a.attempted_at - m.created_at) * 1000 AS deliver
         FROM webhook_endpoints e JOIN webhook_messages m ON m.endpoint_id = e.id JOIN outbox o ON o.event_id = m.event_id
         JOIN webhook_attempts a ON a.message_id = m.id
         WHERE e.portfolio = $1 AND e.url LIKE '%/healthy' AND m.created_at > (SELECT min(created_at) FROM webhook_endpoints WHERE portfolio = $1 AND url LIKE '%/hanging'))
       SELECT floor(extract(epoch FROM created_at - (SELECT min(created_at) FROM t)) / 10) AS w,
              percentile_cont(0.99) WITHIN GROUP (ORDER BY consume) AS consume, percentile_cont(0.99) WITHIN GROUP (ORDER BY deliver) AS deliver
       FROM t GROUP BY w ORDER BY w`),
      [portfolio],
    );
    const ms = (v: number) => Math.round(v);
    progress(`  of which outbox row -> fan-out / fan-out -> attempt, p99 per 10 s: ${windows.map((w) => `${ms(w.consume)} / ${ms(w.deliver)}`).join(', ')} ms`);
  }

  /** What the hanging endpoints held: their lanes full (maxInFlight each), attempts ending at the timeout, the rest waiting. */
  async function hangingRow(portfolio: string, hanging: HangingReceivers): Promise<void> {
    const [held] = await query(
      db,
      sql<{ timed_out: number; waiting: number }, [string]>(`WITH h AS (SELECT id FROM webhook_endpoints WHERE portfolio = $1 AND url LIKE '%/hanging')
       SELECT (SELECT count(*)::int FROM webhook_attempts a JOIN h ON a.endpoint_id = h.id WHERE a.error LIKE 'no answer within%') AS timed_out,
              (SELECT count(*)::int FROM webhook_messages m JOIN h ON m.endpoint_id = h.id WHERE m.status = 'pending') AS waiting`),
      [portfolio],
    );
    row(
      '  the hanging endpoints: requests received (most unanswered at once), attempts timed out, messages pending',
      `${hanging.requests} (${hanging.peakOpen}), ${held.timed_out}, ${held.waiting}`,
    );
  }

  /**
   * Cost of order: deliveries/s to 1 endpoint when every event is a rental of its own, and when the events come
   * EVENTS_PER_RENTAL per rental (rentals in turn), where a rental's next message waits until its previous one is
   * recorded. Alternated, own / per rental / per rental / own, so that what drifts over the run (tables growing,
   * V8 compiling) weighs on both alike.
   */
  async function costOfOrder(): Promise<void> {
    const services = await startServices();
    const producer = new Producer(db, 'bench', (eventId, at) => commits.set(eventId, at));
    await endpoints('order-warm', 1);
    // Unmeasured: fresh services' first thousands of events (connections, prepared statements, V8's compilation).
    await burst(producer, 'order warm-up', 'order-warm', Math.round(THROUGHPUT_EVENTS / 5), 1, services);
    const rates = { own: [] as number[], shared: [] as number[] };
    for (const [n, kind] of (['own', 'shared', 'shared', 'own'] as const).entries()) {
      await endpoints(`order-${n}`, 1);
      const rentalOf = kind === 'own' ? newRentalEach : rentalsInTurn(THROUGHPUT_EVENTS, EVENTS_PER_RENTAL);
      const name = kind === 'own' ? '1 endpoint, every event its own rental' : `1 endpoint, ${EVENTS_PER_RENTAL} events per rental`;
      const run = await burst(producer, name, `order-${n}`, THROUGHPUT_EVENTS, 1, services, rentalOf);
      if (!run.complete) throw new Error(`${name}: not every event was delivered`);
      rates[kind].push(run.rate);
    }
    await stopAll(services);
    const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
    const shown = (values: number[]) =>
      `${Math.round(mean(values)).toLocaleString('en')} (${values.map((v) => Math.round(v).toLocaleString('en')).join(', ')})`;
    const runs = `2 runs of ${THROUGHPUT_EVENTS} events, alternated`;
    row(`deliveries/s, 1 endpoint, every event its own rental (${runs})`, shown(rates.own));
    row(
      `deliveries/s, 1 endpoint, ${EVENTS_PER_RENTAL} events per rental (${THROUGHPUT_EVENTS / EVENTS_PER_RENTAL} rentals in turn; ${runs})`,
      shown(rates.shared),
    );
    row(`  ${EVENTS_PER_RENTAL} per rental against every event its own`, `${((mean(rates.shared) / mean(rates.own) - 1) * 100).toFixed(1)} %`, '>= -10 %');
  }

  // Kafka: the outbox relayed to the broker, a dispatcher with a consumer group of its own reading the topic.
  const brokers = process.env.KAFKA_BROKERS;
  if (brokers && (ONLY === '' || ONLY === 'kafka')) {
    const run = randomUUID().slice(0, 8);
    const source = `bench-kafka-${run}`;
    const relay = await startRelay({
      service: source,
      kafkaBrokers: brokers,
      partitions: 3,
      databaseUrl: url,
      topics: TOPICS,
      batchSize: 500,
      pollIntervalMs: 1_000,
      lagReportIntervalMs: 60_000,
    });
    const group = `bench-${run}`;
    await startGroupAtEnd(brokers, group);
    const services = await startServices({ KAFKA_BROKERS: brokers, DISPATCHER_CONSUMER_GROUP: group });
    const kafkaProducer = new Producer(db, source, (eventId, at) => commits.set(eventId, at));
    for (const portfolio of ['kwarm', 'k100', 'k500']) await endpoints(`${portfolio}-${run}`, 1);
    const kafkaWarm = await paced(kafkaProducer, 'Kafka warm-up', `kwarm-${run}`, 100, 3, services);
    if (!kafkaWarm.complete) throw new Error('the Kafka warm-up events were not all delivered');
    const k100 = await paced(kafkaProducer, 'Kafka 100/s', `k100-${run}`, 100, SECONDS, services);
    row(`commit -> delivery p50 / p99, Kafka, 100 events/s (${k100.phase.latencies.length} of ${k100.count})`, k100.phase.summary());
    await stageRow(`k100-${run}`);
    await paced(kafkaProducer, 'Kafka warm-up at 500/s', `kwarm-${run}`, 500, 2, services);
    const k500 = await paced(kafkaProducer, 'Kafka 500/s', `k500-${run}`, 500, SECONDS, services);
    row(`commit -> delivery p50 / p99, Kafka, 500 events/s (${k500.phase.latencies.length} of ${k500.count})`, k500.phase.summary(), 'p99 < 150 ms');
    await stageRow(`k500-${run}`);
    await stopAll(services);
    await relay.stop();
  }

  if (ONLY === '') row('signatures/s (one core)', Math.round(signaturesPerSecond()).toLocaleString('en'), '>= 100,000');
  row('deliveries received twice (at least once allows it)', String(receiver.duplicates));
  row('TLS connections the receiver accepted (kept alive between deliveries)', `${receiver.connections} for ${receiver.deliveries} deliveries`);
  console.table(rows);

  await receiver.close();
  await db.destroy();
  await postgres.stop();
  rmSync(work, { recursive: true, force: true });
  rmSync(dataDir, { recursive: true, force: true });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
