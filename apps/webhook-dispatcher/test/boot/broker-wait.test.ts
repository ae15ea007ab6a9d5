import path from 'node:path';
import { createTestDatabase, eventually, freePort, startServiceProcess, type TestDatabase } from '@storage/testing';
import { secretKeysVariable, TEST_SECRET_KEY } from '../support/secret-keys';

const MAIN = path.join(__dirname, '..', '..', 'dist', 'main.js');

/**
 * Issue 12: a service started before its broker waits for it (bounded) without looking dead: it listens at once,
 * live, and not ready, saying why, until its consumers run. No broker is needed: the one named never answers.
 */
describe('booting while the broker is not there yet', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => database?.drop());

  it('answers liveness, and readiness 503 naming the startup, while it waits for the broker', async () => {
    const [port, brokerPort] = [await freePort(), await freePort()];
    const base = `http://127.0.0.1:${port}`;
    const dispatcher = await startServiceProcess(
      MAIN,
      {
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        DATABASE_URL: database.url,
        DISPATCHER_PORT: String(port),
        KAFKA_BROKERS: `127.0.0.1:${brokerPort}`,
        WEBHOOK_SECRET_KEYS: secretKeysVariable(TEST_SECRET_KEY),
      },
      `${base}/health/live`,
    );
    try {
      const ready = await fetch(`${base}/health/ready`);
      const body = (await ready.json()) as { checks: { name: string; status: string; error?: string }[] };
      expect(ready.status).toBe(503);
      expect(body.checks).toContainEqual({ name: 'startup', status: 'down', error: 'event transports starting (waiting for the broker)' });
      await eventually(() => expect(dispatcher.output()).toMatch(/Kafka not ready yet \(attempt \d+/), { timeoutMs: 30_000 });
      expect(dispatcher.child.exitCode).toBeNull();
    } finally {
      await dispatcher.signal('SIGKILL');
    }
  }, 90_000);
});
