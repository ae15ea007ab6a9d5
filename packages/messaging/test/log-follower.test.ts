import { createTestDatabase, eventually, type TestDatabase } from '@storage/testing';
import { Pool } from 'pg';
import { query, sql } from '@storage/persistence';
import { LogFollower, OUTBOX_CHANNEL, type StepResult } from '../src/embedded/log-follower';

const NOTIFY_OUTBOX = sql(`SELECT pg_notify('${OUTBOX_CHANNEL}', '')`);

describe('LogFollower', () => {
  let database: TestDatabase;
  let pool: Pool;

  beforeAll(async () => {
    database = await createTestDatabase();
    pool = new Pool({ connectionString: database.url, max: 3 });
  });
  afterAll(async () => {
    await pool.end();
    await database.drop();
  });

  /** A follower whose every step finds the log idle, recording when it stepped. */
  function idleFollower(lockName: string, pollIntervalMs: number): { follower: LogFollower; steps: number[]; onError: jest.Mock } {
    const steps: number[] = [];
    const onError = jest.fn();
    const follower = new LogFollower({
      pool,
      lockName,
      topics: [],
      pollIntervalMs,
      lead: async () => undefined,
      step: async (): Promise<StepResult> => {
        steps.push(Date.now());
        return 'idle';
      },
      onError,
    });
    return { follower, steps, onError };
  }

  it('backs its safety poll off while the log is idle', async () => {
    const { follower, steps, onError } = idleFollower('follower-backoff-test', 20);
    follower.start();
    try {
      await eventually(() => expect(steps.length).toBeGreaterThan(0));
      // Observes the absence of steps over a while: a slower machine only steps less often.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      // Polled every 20 ms that would be about 75 steps; backing off (20, 40, 80 … 600 ms) it is about 8.
      expect(steps.length).toBeLessThan(20);
      const gaps = steps.slice(1).map((at, i) => at - steps[i]);
      expect(Math.max(...gaps)).toBeGreaterThanOrEqual(300);
      expect(onError).not.toHaveBeenCalled();
    } finally {
      await follower.stop();
    }
  });

  it('steps at each notification, not at its next safety poll', async () => {
    // The safety poll is ten minutes away: any step after the first is the notification's, however slow the machine.
    const { follower, steps, onError } = idleFollower('follower-wake-test', 600_000);
    follower.start();
    try {
      // It listens before its first step.
      await eventually(() => expect(steps).toHaveLength(1));
      await query(pool, NOTIFY_OUTBOX);
      await eventually(() => expect(steps).toHaveLength(2));
      await query(pool, NOTIFY_OUTBOX);
      await eventually(() => expect(steps).toHaveLength(3));
      expect(onError).not.toHaveBeenCalled();
    } finally {
      await follower.stop();
    }
  });

  it('leaves no lock behind while it backs off after a failed step: another replica takes the lead', async () => {
    // A failed step (Kafka away, say) ends this leadership; its connection, back in the pool still holding the lock,
    // kept every replica from leading, this one too whenever the pool handed it another connection.
    const lockName = 'follower-failover-test';
    const onError = jest.fn();
    const failing = new LogFollower({
      pool,
      lockName,
      topics: [],
      // Its backoff outlasts the test: only another replica can lead meanwhile.
      pollIntervalMs: 600_000,
      lead: async () => undefined,
      step: async (): Promise<StepResult> => {
        throw new Error('broker away');
      },
      onError,
    });
    const standbyPool = new Pool({ connectionString: database.url, max: 2 });
    const led = jest.fn();
    const standby = new LogFollower({
      pool: standbyPool,
      lockName,
      topics: [],
      pollIntervalMs: 20,
      lead: async () => void led(),
      step: async (): Promise<StepResult> => 'idle',
      onError: jest.fn(),
    });
    failing.start();
    try {
      await eventually(() => expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'broker away' })));
      standby.start();
      await eventually(() => expect(led).toHaveBeenCalled(), { timeoutMs: 10_000, intervalMs: 20 });
    } finally {
      await Promise.all([failing.stop(), standby.stop()]);
      await standbyPool.end();
    }
  });
});
