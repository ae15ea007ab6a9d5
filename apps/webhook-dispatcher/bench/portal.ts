import { randomBytes, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { query, sql } from '@storage/persistence';
import { generateSecret, issuePortalToken, type SecretKeyring } from '@storage/webhooks';
import { startService } from './services';

/** The log the portal is measured over: one endpoint's messages, an attempt each, spread over the last 7 days. */
export const PORTAL_MESSAGES = Number(process.env.BENCH_PORTAL_MESSAGES ?? 100_000);
const REQUESTS_PER_PAGE = Number(process.env.BENCH_PORTAL_REQUESTS ?? 200);
const WARM_REQUESTS = 20;
const PORTFOLIO = 'bench-portal';

const percentile = (sorted: number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** Each page's p50 and p99 (ms), one request at a time, each page warmed first. */
export interface PortalTiming {
  page: string;
  p50: number;
  p99: number;
}

/**
 * Fills the log (messages of 1,000 rentals in turn, 1 in 20 failed, with an attempt each), starts a dispatcher with
 * the portal, signs in as a write key would and times its HTML pages: the endpoints list, the endpoint page (rates,
 * charts and the newest 100 messages), an older page, each filter and each kind of search, a message, the catalog.
 */
export async function timePortalPages(db: DataSource, keyring: SecretKeyring, env: Record<string, string>): Promise<PortalTiming[]> {
  const endpointId = randomUUID();
  await query(
    db,
    sql(
      `INSERT INTO webhook_endpoints (id, portfolio, vendor_name, url, description, event_types, secret)
       VALUES ($1, $2, 'bench-portal', 'https://127.0.0.1:9/portal', 'bench', '{moved-in,rent-change}', $3)`,
    ),
    [endpointId, PORTFOLIO, keyring.seal(generateSecret(), endpointId)],
  );
  await query(
    db,
    sql(
      `INSERT INTO webhook_messages (id, endpoint_id, portfolio, event_id, event_type, body, status, attempts, ordering_key, created_at, last_attempt_at)
       SELECT 'msg_' || lpad(to_hex(n), 32, '0'), $1, $2, 'bench-event-' || n, CASE WHEN n % 2 = 0 THEN 'moved-in' ELSE 'rent-change' END,
              '{"data":[{"event":"moved-in","n":' || n || '}],"test":false}', CASE WHEN n % 20 = 0 THEN 'failed' ELSE 'succeeded' END, 1,
              ('00000000-0000-4000-8000-' || lpad(to_hex(n % 1000), 12, '0'))::uuid,
              now() - (n * 604800.0 / $3) * interval '1 second', now() - (n * 604800.0 / $3) * interval '1 second'
         FROM generate_series(1, $3::int) AS n`,
    ),
    [endpointId, PORTFOLIO, PORTAL_MESSAGES],
  );
  await query(
    db,
    sql(
      `INSERT INTO webhook_attempts (message_id, endpoint_id, attempted_at, succeeded, status_code, latency_ms, response_body)
       SELECT id, endpoint_id, created_at, status = 'succeeded', CASE WHEN status = 'succeeded' THEN 200 ELSE 500 END, 20, 'ok'
         FROM webhook_messages WHERE endpoint_id = $1`,
    ),
    [endpointId],
  );
  await query(db, sql('ANALYZE webhook_messages'));
  await query(db, sql('ANALYZE webhook_attempts'));
  const [key] = await query(db, sql<{ uuid: string }>(`INSERT INTO api_keys (key_hash, key_prefix, scope) VALUES ($1, 'sk_bench', 'write') RETURNING uuid`), [
    randomUUID(),
  ]);

  const secret = randomBytes(32).toString('base64');
  const dispatcher = await startService('webhook-dispatcher', 'DISPATCHER_PORT', { ...env, PORTAL_TOKEN_SECRET: secret });
  try {
    const base = `http://127.0.0.1:${dispatcher.port}`;
    const login = await fetch(`${base}/portal/login?token=${issuePortalToken(PORTFOLIO, new Date(), secret, key.uuid).token}`, { redirect: 'manual' });
    const cookie = login.headers.get('set-cookie')!.split(';')[0];
    const middle = `msg_${(PORTAL_MESSAGES / 2).toString(16).padStart(32, '0')}`;
    const endpoint = `/portal/endpoints/${endpointId}`;
    const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 16);
    const pages: [string, string][] = [
      ['endpoints list', '/portal'],
      ['endpoint, newest 100 messages', endpoint],
      ['endpoint, a page halfway down the log', `${endpoint}?older=${middle}`],
      ['endpoint, failed messages only', `${endpoint}?status=failed`],
      ['endpoint, one event type', `${endpoint}?eventType=rent-change`],
      ['endpoint, created 3 to 4 days ago', `${endpoint}?from=${day(4)}&to=${day(3)}`],
      ['endpoint, search by message id', `${endpoint}?search=${middle}`],
      ['endpoint, search by event id', `${endpoint}?search=bench-event-${PORTAL_MESSAGES / 2}`],
      ['endpoint, search by rental uuid', `${endpoint}?search=00000000-0000-4000-8000-${(500).toString(16).padStart(12, '0')}`],
      ['search of every endpoint by event id', `/portal/search?search=bench-event-${PORTAL_MESSAGES / 2}`],
      ['search of every endpoint by rental uuid', `/portal/search?search=00000000-0000-4000-8000-${(500).toString(16).padStart(12, '0')}`],
      ['message', `/portal/messages/${middle}`],
      ['event catalog', '/portal/catalog'],
    ];
    const timings: PortalTiming[] = [];
    for (const [page, path] of pages) {
      const times: number[] = [];
      for (let i = 0; i < WARM_REQUESTS + REQUESTS_PER_PAGE; i += 1) {
        const begin = performance.now();
        const response = await fetch(`${base}${path}`, { headers: { cookie } });
        await response.text();
        if (response.status !== 200) throw new Error(`${page}: ${response.status}`);
        if (i >= WARM_REQUESTS) times.push(performance.now() - begin);
      }
      times.sort((a, b) => a - b);
      timings.push({ page, p50: percentile(times, 50), p99: percentile(times, 99) });
    }
    return timings;
  } finally {
    await dispatcher.stop();
  }
}
