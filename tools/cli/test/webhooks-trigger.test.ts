import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { type DatabaseLocation, locateDatabase, query, sql } from '@storage/persistence';
import { eventually, freePort } from '@storage/testing';
import { cli, startSystem, stopWithCtrlC, systemEnv, type RunningSystem } from './support/system';

const MESSAGES = sql<{ eventType: string; body: string }, [string]>(
  `SELECT event_type AS "eventType", body FROM webhook_messages WHERE endpoint_id = $1 ORDER BY emission_order`,
);

/** `webhooks trigger` through the running system (`npm start`): operation 19 on the api, fanned out by the dispatcher. */
describe('npm run cli -- webhooks trigger', () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let system: RunningSystem;
  let database: DatabaseLocation;
  let db: Client;
  let api: string;
  let apiKey: string;

  /** Asynchronous: the system's processes answer while it runs. */
  const trigger = (...args: string[]): Promise<{ status: number | null; output: string }> => {
    const child = spawn(process.execPath, [cli, 'webhooks', 'trigger', ...args], { env });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    return new Promise((resolve) => child.once('close', (status) => resolve({ status, output })));
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'webhooks-trigger-'));
    // The endpoint below is on this machine: nothing answers there, the test reads what the dispatcher queued.
    const started = await systemEnv(dataDir, { WEBHOOK_ALLOWED_SUBNETS: '127.0.0.1/32' });
    env = started.env;
    system = await startSystem(env);
    api = `http://127.0.0.1:${started.apiPort}`;
    apiKey = (await readFile(path.join(dataDir, 'demo-api-key'), 'utf8')).trim();
    database = await locateDatabase({ dataDir });
    db = new Client({ connectionString: database.url });
    await db.connect();
  }, 180_000);

  afterAll(async () => {
    await db?.end();
    await database?.release();
    if (system) expect(await stopWithCtrlC(system)).toBe(0);
    await rm(dataDir, { recursive: true, force: true });
  }, 60_000);

  it("sends operation 19's test event to the portfolio's endpoints subscribed to the type, marked test: true", async () => {
    const created = await fetch(`${api}/api/v1/webhooks/subscriptions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
      body: JSON.stringify({
        vendorName: 'trigger test',
        targetUrl: `https://127.0.0.1:${await freePort()}/hook`,
        eventTypes: ['auction'],
        description: 'receives the triggered test event',
        portfolio: 'demo',
      }),
    });
    expect(created.status).toBe(200);
    const { endpointId: id } = (await created.json()) as { endpointId: string };

    const sent = await trigger('auction', '--portfolio', 'demo', '--api', api, '--api-key', apiKey);
    expect(sent).toEqual({ status: 0, output: 'test auction event sent to 1 endpoint(s) of portfolio demo (marked test: true)\n' });
    const [message] = await eventually(
      async () => {
        const rows = await query(db, MESSAGES, [id]);
        expect(rows).toHaveLength(1);
        return rows;
      },
      { timeoutMs: 15_000 },
    );
    expect(message.eventType).toBe('auction');
    expect(JSON.parse(message.body)).toMatchObject({ test: true, data: [{ event: 'auction', tenantUuid: '00000000-0000-0000-0000-000000000000' }] });

    // The key from STORAGE_API_KEY; a type the endpoint does not subscribe to is the api's 404, a usage error.
    const unsubscribed = await (async () => {
      const saved = env.STORAGE_API_KEY;
      env.STORAGE_API_KEY = apiKey;
      try {
        return await trigger('moved-in', '--portfolio', 'demo', '--api', api);
      } finally {
        env.STORAGE_API_KEY = saved;
      }
    })();
    expect(unsubscribed.status).toBe(2);
    expect(unsubscribed.output).toContain('No enabled endpoint of portfolio demo subscribes to moved-in');
    expect(await query(db, MESSAGES, [id])).toHaveLength(1);
  }, 60_000);

  it('refuses an unknown event type (exit 2), a missing or refused key and an api that does not answer (exit 1)', async () => {
    const unknown = await trigger('moved-sideways', '--portfolio', 'demo', '--api', api, '--api-key', apiKey);
    expect(unknown.status).toBe(2);
    expect(unknown.output).toContain('unknown event type "moved-sideways"; event types: moved-in, moved-out, rent-change,');
    const noKey = await trigger('auction', '--portfolio', 'demo', '--api', api);
    expect(noKey.status).toBe(2);
    expect(noKey.output).toContain('an API key is needed: --api-key <key> or STORAGE_API_KEY');
    const badKey = await trigger('auction', '--portfolio', 'demo', '--api', api, '--api-key', 'sk_not_a_key');
    expect(badKey.status).toBe(1);
    expect(badKey.output).toContain('the api refused the test event: 401');
    const down = await trigger('auction', '--portfolio', 'demo', '--api', `http://127.0.0.1:${await freePort()}`, '--api-key', apiKey);
    expect(down.status).toBe(1);
    expect(down.output).toContain('cannot reach the api at');
  }, 60_000);
});
