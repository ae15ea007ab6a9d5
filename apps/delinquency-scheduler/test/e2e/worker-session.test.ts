import { query, sql } from '@storage/persistence';
import { schedulerTestBed } from '../support/harness';

/*
 * A business-day worker tunes its pooled connection's session (no sequential scans for its key lookups); the
 * connection goes back to the pool, and whatever uses it next must get PostgreSQL's defaults.
 */
describe("a business-day worker's connection", () => {
  let bed: Awaited<ReturnType<typeof schedulerTestBed>>;

  beforeAll(async () => {
    bed = await schedulerTestBed();
  });
  afterAll(() => bed.close());

  it('goes back to the pool with the default planner settings', async () => {
    const { dataSource, advancer } = bed.scheduler;
    const worker = await advancer.worker();
    await worker.release();
    // The pool hands out its most recently released connection first: the worker's.
    const runner = dataSource.createQueryRunner();
    try {
      const [setting] = await query(runner, sql<{ enable_seqscan: string }>('SHOW enable_seqscan'));
      expect(setting?.enable_seqscan).toBe('on');
    } finally {
      await runner.release();
    }
  });
});
