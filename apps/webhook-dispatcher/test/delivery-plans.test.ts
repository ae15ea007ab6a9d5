import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { createDataSource, query, sql } from '@storage/persistence';
import { createTestDatabase, type TestDatabase } from '@storage/testing';
import { type AttemptRecord, MessageStore } from '../src/delivery/message-store';
import { fanOutAndMarkMany, type MarkedEvent } from '../src/fan-out/fan-out-many';
import { seedEndpoint } from './support/endpoints';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Alias?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** Messages of `endpoints`, in turns, each its own rental: `status` and due now (pending) or settled. */
const MESSAGES = sql<never, [string[], number, string]>(
  `INSERT INTO webhook_messages (id, endpoint_id, portfolio, event_id, event_type, body, ordering_key, status, attempts, claimed, next_attempt_at, created_at)
   SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), ($1::uuid[])[1 + g % cardinality($1::uuid[])], 'acme', gen_random_uuid()::text,
          'rent-change', '{"data":[{}],"test":false}', gen_random_uuid(), $3, 1, false,
          CASE WHEN $3 = 'pending' THEN now() - interval '1 second' END, now()
   FROM generate_series(1, $2) g`,
);

/** `$2` messages of each of `$1` in flight: claimed, leased for an hour. */
const IN_FLIGHT = sql<never, [string[], number]>(
  `UPDATE webhook_messages SET claimed = true, next_attempt_at = now() + interval '1 hour'
   WHERE id IN (SELECT m.id FROM unnest($1::uuid[]) AS e(id)
                CROSS JOIN LATERAL (SELECT id FROM webhook_messages WHERE endpoint_id = e.id AND status = 'pending' LIMIT $2) m)`,
);

/**
 * The delivery statements' plans when a receiver stopped answering and its messages pile up: what PostgreSQL knew when
 * it last analysed the table (no message pending) must not lead the checks of a rental's order through the backlog.
 * Plans are taken as the dispatcher's sessions run them (generic plans of its prepared statements), from auto_explain.
 */
describe('delivery plans beside a backlog', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let session: Client;
  let plans: PlanNode[] = [];
  let hanging: string[];
  let healthy: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await createDataSource({ url: database.url, applicationName: 'delivery-plans' }).initialize();
    // What the table's statistics say is what each test sets up, not what autovacuum saw meanwhile.
    await query(dataSource, sql('ALTER TABLE webhook_messages SET (autovacuum_enabled = false)'));
    healthy = (await seedEndpoint(dataSource, { url: 'https://healthy.example/hook', eventTypes: ['rent-change'] })).id;
    hanging = [];
    for (let n = 0; n < 10; n++) hanging.push((await seedEndpoint(dataSource, { url: `https://hanging-${n}.example/hook`, eventTypes: ['rent-change'] })).id);

    session = new Client({ connectionString: database.url });
    await session.connect();
    session.on('notice', (notice) => {
      const text = notice.message ?? '';
      const json = text.slice(text.indexOf('{'));
      if (text.includes('"Plan"')) plans.push((JSON.parse(json) as { Plan: PlanNode }).Plan);
    });
    for (const setting of [
      "LOAD 'auto_explain'",
      'SET auto_explain.log_min_duration = 0',
      'SET auto_explain.log_format = json',
      'SET client_min_messages = log',
      // As a long-lived session runs them after its first few executions.
      'SET plan_cache_mode = force_generic_plan',
    ])
      await query(session, sql(setting));
  }, 120_000);

  afterAll(async () => {
    await session?.end();
    await dataSource?.destroy();
    await database?.drop();
  });

  const event = (): MarkedEvent => ({
    group: 'plans',
    key: randomUUID(),
    event: {
      portfolio: 'acme',
      eventId: randomUUID(),
      type: 'rent-change',
      payload: {},
      test: false,
      filters: { facilityUuid: randomUUID(), unitType: randomUUID(), amenityUuids: [] },
      orderingKey: randomUUID(),
    },
  });

  /** The backlog of the hanging endpoints, each at its limit of deliveries in flight, after `history` delivered. */
  async function backlog(history: { analysed: boolean }): Promise<void> {
    await query(dataSource, MESSAGES, [[healthy, ...hanging], 20_000, 'succeeded']);
    if (history.analysed) await query(dataSource, sql('ANALYZE webhook_messages'));
    await query(dataSource, MESSAGES, [hanging, 40_000, 'pending']);
    await query(dataSource, IN_FLIGHT, [hanging, 16]);
  }

  /** A dispatcher's round, as its session runs it: fan-out of one event (its own statement) and of a batch, a claim, the record. */
  async function round(): Promise<void> {
    const asDispatcher = session as unknown as DataSource;
    const store = new MessageStore(asDispatcher);
    const leaseUntil = new Date(Date.now() + 60_000);
    const one = await fanOutAndMarkMany(asDispatcher, [event()], new Date(), { count: 4, leaseUntil, settled: [] });
    const batch = await fanOutAndMarkMany(asDispatcher, [event(), event(), event()], new Date(), { count: 4, leaseUntil, settled: [] });
    await store.claimDue(new Date(), leaseUntil, 10, [], 'plans');
    const delivered = [...one.claimed, ...batch.claimed].map((message): AttemptRecord => ({
      message,
      attemptedAt: new Date(),
      response: { kind: 'response', statusCode: 204, body: '', retryAfter: undefined, latencyMs: 1 },
      outcome: 'succeeded',
      nextAttemptAt: null,
    }));
    expect(delivered.length).toBeGreaterThan(0);
    await store.record(delivered, new Date(), new Date(0));
  }

  it('plans made on a young table read no backlog whole once it has grown, before autovacuum analyses it', async () => {
    // The session's generic plans are made while the table holds a handful of messages, as after a deploy.
    await round();
    await backlog({ analysed: false });
    plans = [];
    await round();
    const scans = plans.flatMap(nodesOf).filter((node) => node['Relation Name'] === 'webhook_messages');
    expect(scans.length).toBeGreaterThan(0);
    expect(scans.filter((node) => node['Node Type'].includes('Seq Scan')).map((node) => node.Alias)).toEqual([]);
  }, 120_000);

  it('checks a rental order with the ordering index, counts leases with the claimed index, and reads no table whole, in the fan-out, the claims and the records', async () => {
    // A running system: history delivered, nothing pending when autovacuum last analysed the table, then the backlog.
    await query(dataSource, sql('TRUNCATE webhook_messages CASCADE'));
    await backlog({ analysed: true });
    plans = [];
    for (let n = 0; n < 3; n++) await round();
    const scans = plans.flatMap(nodesOf).filter((node) => node['Relation Name'] === 'webhook_messages');
    expect(scans.length).toBeGreaterThan(0);
    expect(scans.filter((node) => node['Node Type'].includes('Seq Scan'))).toEqual([]);
    // `p` holds back, `n` waits: both are the same rental's other messages to the endpoint.
    const holdChecks = scans.filter((node) => node.Alias === 'p' || node.Alias === 'n');
    expect(holdChecks.length).toBeGreaterThan(0);
    expect(new Set(holdChecks.map((node) => node['Index Name']))).toEqual(new Set(['ix_webhook_messages_ordering']));
    // `f`: an endpoint's deliveries in flight, counted from its leases alone, not through its backlog of retries.
    const leaseCounts = scans.filter((node) => node.Alias === 'f');
    expect(leaseCounts.length).toBeGreaterThan(0);
    expect(new Set(leaseCounts.map((node) => node['Index Name']))).toEqual(new Set(['ix_webhook_messages_endpoint_claimed']));
  }, 120_000);
});
