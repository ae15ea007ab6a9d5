import type { ClientBase, Pool } from 'pg';
import type { DataSource } from 'typeorm';
import { DEFAULT_DELINQUENCY_SCHEDULE } from '@storage/domain';
import { BusinessDayAdvancer } from '@storage/delinquency';
import { createDataSource, query, sql } from '@storage/persistence';
import { createTestDatabase, type TestDatabase } from '@storage/testing';
import { BENCH_UUID_FUNCTION, createScaleDataset } from '../../bench/scale-dataset';

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

const BUSINESS_DATE = '2025-06-01';
const RENTALS = 40_000;

/** The tables a business day fills: empty when a new deployment's tables were last analysed. */
const FILLED_BY_THE_RUN = ['auctions', 'gate_code_suspensions'];

const CANDIDATES = sql<{ uuid: string }>('SELECT uuid FROM rental_records WHERE balance_in_pennies > 0 ORDER BY uuid');
/** Every rental not among `$1` suspended: the table as a run at scale leaves it, not analysed since it was empty. */
const SUSPEND_OTHERS = sql<never, [string[], string]>(
  `-- owner-bypass: the table grown as a run at scale leaves it, in one statement, without a run
   INSERT INTO gate_code_suspensions (rental_record_uuid, facility_uuid, suspended_on)
   SELECT uuid, facility_uuid, $2::date FROM rental_records WHERE uuid <> ALL($1::uuid[])`,
);
/** An auction of every rental not among `$1`, as rows a run at scale leaves, not analysed since the table was empty. */
const AUCTION_OTHERS = sql<never, [string[], string]>(
  `-- owner-bypass: the table grown as a run at scale leaves it, in one statement, without a run
   INSERT INTO auctions (uuid, rental_record_uuid, delinquency_uuid, facility_uuid, stage, scheduled_on, start_date, end_date, minimum_bid_in_pennies)
   SELECT gen_random_uuid(), uuid, gen_random_uuid(), facility_uuid, 'COMPLETED', $2::date, $2::date, $2::date, 100
     FROM rental_records WHERE uuid <> ALL($1::uuid[])`,
);

/**
 * The business-day run's plans on a new deployment: auctions and gate code suspensions were empty when last analysed,
 * and the run itself fills them. A plan a worker's session cached then (a generic plan of a prepared statement) would
 * go on reading those tables whole for every batch once they have grown; autovacuum analyses them only minutes later.
 * The worker's statements are taken from auto_explain, its sessions running generic plans wherever they cache any.
 */
describe('business-day plans on tables the run fills', () => {
  let database: TestDatabase;
  let admin: DataSource;
  let scheduler: DataSource;
  const plans: PlanNode[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    admin = await createDataSource({ url: database.url, applicationName: 'plans-admin' }).initialize();
    // Analysed as autovacuum would a new deployment: the run's tables empty. Autovacuum stays away from then on.
    await query(admin, BENCH_UUID_FUNCTION);
    await createScaleDataset(admin, { facilities: 10, rentals: RENTALS, businessDate: BUSINESS_DATE, spread: 'typical', historyMonths: 0 });
    for (const table of FILLED_BY_THE_RUN) await query(admin, sql(`ALTER TABLE ${table} SET (autovacuum_enabled = false)`));
    for (const setting of [
      "session_preload_libraries = 'auto_explain'",
      'auto_explain.log_min_duration = 0',
      'auto_explain.log_format = json',
      'auto_explain.log_nested_statements = on',
      'client_min_messages = log',
      // As a long-lived session runs a cached statement after its first few executions.
      'plan_cache_mode = force_generic_plan',
    ])
      await query(admin, sql(`ALTER DATABASE ${database.name} SET ${setting}`));

    scheduler = await createDataSource({ url: database.url, applicationName: 'plans-scheduler', poolSize: 2 }).initialize();
    const listening = new WeakSet<ClientBase>();
    // TypeORM's pool: every session it hands out, the ones it made before this listener included.
    (scheduler.driver as unknown as { master: Pool }).master.on('acquire', (client) => {
      if (listening.has(client)) return;
      listening.add(client);
      client.on('notice', (notice) => {
        const text = notice.message ?? '';
        if (text.includes('"Plan"')) plans.push((JSON.parse(text.slice(text.indexOf('{'))) as { Plan: PlanNode }).Plan);
      });
    });
  }, 600_000);

  afterAll(async () => {
    await scheduler?.destroy();
    await admin?.destroy();
    await database?.drop();
  });

  it('reads no table the run fills whole once it has grown, before autovacuum analyses it', async () => {
    const candidates = (await query(admin, CANDIDATES)).map(({ uuid }) => uuid);
    expect(candidates.length).toBeGreaterThan(RENTALS / 20);
    const worker = await new BusinessDayAdvancer(scheduler, 'plans-test').worker();
    try {
      // The worker's first batches run on the young tables.
      const first = await worker.advance(candidates.slice(0, 32), BUSINESS_DATE, DEFAULT_DELINQUENCY_SCHEDULE);
      expect(first.failures).toEqual([]);
      await query(admin, SUSPEND_OTHERS, [candidates, BUSINESS_DATE]);
      await query(admin, AUCTION_OTHERS, [candidates, BUSINESS_DATE]);
      plans.length = 0;
      const then = await worker.advance(candidates.slice(32, 96), BUSINESS_DATE, DEFAULT_DELINQUENCY_SCHEDULE);
      expect(then.failures).toEqual([]);
      expect(then.transitions).toBeGreaterThan(0);
    } finally {
      await worker.release();
    }
    const scans = plans.flatMap(nodesOf).filter((node) => FILLED_BY_THE_RUN.includes(node['Relation Name'] ?? ''));
    expect(new Set(scans.map((node) => node['Relation Name']))).toEqual(new Set(FILLED_BY_THE_RUN));
    expect(scans.filter((node) => node['Node Type'].includes('Seq Scan')).map((node) => node['Relation Name'])).toEqual([]);
  }, 600_000);
});
