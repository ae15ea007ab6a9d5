import { randomUUID } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { createDataSource, query, sql } from '@storage/persistence';
import { createTestDatabase, insertRentalParents, type TestDatabase } from '@storage/testing';
import { issuePortalToken } from '@storage/webhooks';
import { SESSION_COOKIE } from '../src/portal/portal-session';
import { seedEndpoint } from './support/endpoints';
import { portalTestApp } from './support/portal-app';

const SECRET = 'portal-log-secret-at-least-32-characters-long';
const MESSAGES = 250;
/** Message n was created n minutes before this time; every fifth is a failed `rent-change`, the others succeeded `moved-in`s. */
const NEWEST = new Date('2026-03-01T12:00:00Z');

/** Issue 37: the message page, and the log paged over all messages with its filters and search (in-process). */
describe('portal message log and message page', () => {
  let database: TestDatabase;
  let db: DataSource;
  let app: NestFastifyApplication;
  let cookie: string;
  let endpointId: string;

  const get = async (url: string, withCookie = true): Promise<{ status: number; body: string }> => {
    const response = await app.inject({ method: 'GET', url, headers: withCookie ? { cookie } : {} });
    return { status: response.statusCode, body: response.body };
  };
  const idsOn = (page: string): string[] => [...page.matchAll(/<tr class="message" data-id="([^"]+)"/g)].map((match) => match[1]);
  const olderLink = (page: string): string | undefined => /<a href="([^"]+)" id="older"/.exec(page)?.[1].replaceAll('&amp;', '&');
  const messageId = (n: number) => `msg_${n.toString(16).padStart(32, '0')}`;
  const rentalOf = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = await createDataSource({ url: database.url, applicationName: 'portal-log-test' }).initialize();
    const { portfolioUuid } = await insertRentalParents(db, { portfolioId: 'acme' });
    const [key] = await query(
      db,
      sql<{ uuid: string }>(`INSERT INTO api_keys (key_hash, key_prefix, scope, portfolio_uuids) VALUES ($1, 'sk_log', 'write', $2) RETURNING uuid
         -- owner-bypass: an api key, a row of apps/api, which the dispatcher cannot depend on`),
      [randomUUID(), [portfolioUuid]],
    );
    ({ id: endpointId } = await seedEndpoint(db, { portfolio: 'acme', url: 'https://receiver.example/log' }));
    await query(
      db,
      sql(`INSERT INTO webhook_messages (id, endpoint_id, portfolio, event_id, event_type, body, status, attempts, ordering_key, created_at)
         SELECT 'msg_' || lpad(to_hex(n), 32, '0'), $1, 'acme', 'event-' || n, CASE WHEN n % 5 = 0 THEN 'rent-change' ELSE 'moved-in' END,
                '{"data":[{"event":"moved-in","n":' || n || '}],"test":false}', CASE WHEN n % 5 = 0 THEN 'failed' ELSE 'succeeded' END, 1,
                ('00000000-0000-4000-8000-' || lpad(to_hex(n), 12, '0'))::uuid,
                $2::timestamptz - n * interval '1 minute'
           FROM generate_series(1, ${MESSAGES}) AS n`),
      [endpointId, NEWEST],
    );
    // Two messages created at the same instant: paging neither repeats nor skips one of them.
    await query(db, sql(`UPDATE webhook_messages SET created_at = $1::timestamptz - interval '100 minutes' WHERE id = $2`), [NEWEST, messageId(101)]);
    await query(
      db,
      sql(`INSERT INTO webhook_attempts (message_id, endpoint_id, attempted_at, succeeded, status_code, error, latency_ms, response_body)
         VALUES ($1, $2, $3, false, 500, NULL, 1234, 'receiver <b>exploded</b>'), ($1, $2, $4, false, NULL, 'timed out after 15 s', 15000, NULL)`),
      [messageId(5), endpointId, new Date(NEWEST.getTime() - 4 * 60_000), new Date(NEWEST.getTime() - 3 * 60_000)],
    );
    app = await portalTestApp(db, SECRET);
    const login = await app.inject({ method: 'GET', url: `/portal/login?token=${issuePortalToken('acme', new Date(), SECRET, key.uuid).token}` });
    cookie = String(login.headers['set-cookie']).split(';')[0];
    expect(cookie).toContain(`${SESSION_COOKIE}=`);
  });
  afterAll(async () => {
    await app?.close();
    await db?.destroy();
    await database?.drop();
  });

  it('pages over every message, newest first, with no cap, none twice', async () => {
    const seen: string[] = [];
    let next: string | undefined = `/portal/endpoints/${endpointId}`;
    let pages = 0;
    while (next) {
      const page = await get(next);
      expect(page.status).toBe(200);
      seen.push(...idsOn(page.body));
      next = olderLink(page.body);
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen).toHaveLength(MESSAGES);
    expect(new Set(seen).size).toBe(MESSAGES);
    expect(seen[0]).toBe(messageId(1));
    expect(seen.at(-1)).toBe(messageId(MESSAGES));
  });

  it('filters by event type, status and creation time, and keeps the filter on the next page', async () => {
    const failed = await get(`/portal/endpoints/${endpointId}?status=failed&eventType=rent-change`);
    expect(idsOn(failed.body)).toHaveLength(MESSAGES / 5);
    expect(olderLink(failed.body)).toBeUndefined();
    const from = new Date(NEWEST.getTime() - 10 * 60_000).toISOString().slice(0, 16);
    const to = new Date(NEWEST.getTime() - 2 * 60_000).toISOString().slice(0, 16);
    const window = await get(`/portal/endpoints/${endpointId}?from=${from}&to=${to}`);
    expect(idsOn(window.body)).toEqual([3, 4, 5, 6, 7, 8, 9, 10].map(messageId));
    const succeeded = await get(`/portal/endpoints/${endpointId}?status=succeeded`);
    const second = await get(olderLink(succeeded.body)!);
    expect(olderLink(succeeded.body)).toContain('status=succeeded');
    expect(idsOn(second.body)).toHaveLength(MESSAGES - MESSAGES / 5 - 100);
  });

  it.each([
    ['message id', messageId(42)],
    ['event id', 'event-42'],
    ['rental uuid', rentalOf(42)],
  ])('finds a message by its %s', async (_, search) => {
    const page = await get(`/portal/endpoints/${endpointId}?search=${encodeURIComponent(` ${search} `)}`);
    expect(idsOn(page.body)).toEqual([messageId(42)]);
  });

  it('finds a message of any endpoint of the portfolio, never another portfolio’s, from the endpoints page', async () => {
    const other = await seedEndpoint(db, { portfolio: 'acme', url: 'https://receiver.example/other' });
    const elsewhere = await seedEndpoint(db, { portfolio: 'globex', url: 'https://receiver.example/globex' });
    for (const [id, endpoint, portfolio] of [
      [messageId(100_001), other.id, 'acme'],
      [messageId(100_002), elsewhere.id, 'globex'],
    ] as const) {
      await query(
        db,
        sql(`INSERT INTO webhook_messages (id, endpoint_id, portfolio, event_id, event_type, body, status, attempts, ordering_key, created_at)
           VALUES ($1, $2, $3, 'event-7', 'moved-in', '{}', 'succeeded', 1, $4, now())`),
        [id, endpoint, portfolio, rentalOf(7)],
      );
    }
    expect((await get('/portal')).body).toContain('<form method="get" action="/portal/search"');
    const foundIds = (page: string) => [...page.matchAll(/<tr class="found" data-id="([^"]+)"/g)].map((match) => match[1]);
    for (const search of ['event-7', rentalOf(7)]) {
      expect(foundIds((await get(`/portal/search?search=${search}`)).body)).toEqual([messageId(100_001), messageId(7)]);
    }
    expect(foundIds((await get(`/portal/search?search=${messageId(7)}`)).body)).toEqual([messageId(7)]);
    const none = await get(`/portal/search?search=${messageId(100_002)}`);
    expect(foundIds(none.body)).toEqual([]);
    expect(none.body).not.toContain('receiver.example/globex');
  });

  it('says so when nothing matches a search', async () => {
    const page = await get(`/portal/endpoints/${endpointId}?search=nothing-like-it`);
    expect(idsOn(page.body)).toEqual([]);
    expect(page.body).toContain('No messages match.');
  });

  it('links each message of the log to its page: the payload, its hook-id, every attempt, escaped', async () => {
    const log = await get(`/portal/endpoints/${endpointId}?search=${messageId(5)}`);
    expect(log.body).toContain(`href="/portal/messages/${messageId(5)}"`);
    const page = await get(`/portal/messages/${messageId(5)}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain(
      `<pre id="payload" tabindex="0" aria-label="Payload">{\n  &quot;data&quot;: [\n    {\n      &quot;event&quot;: &quot;moved-in&quot;,`,
    );
    expect(page.body).toContain(`<span id="hook-id">${messageId(5)}</span>`);
    expect(page.body).toContain(String(Math.floor((NEWEST.getTime() - 4 * 60_000) / 1000)));
    expect(page.body).toContain('receiver &lt;b&gt;exploded&lt;/b&gt;');
    expect(page.body).toContain('1234 ms');
    expect(page.body).toContain('timed out after 15 s');
    expect(page.body).toContain(rentalOf(5));
    expect(page.body).not.toContain('whsec_');
  });

  it('answers an HTML 404 page for a message of nowhere and for every unknown path under /portal', async () => {
    for (const path of [`/portal/messages/msg_${'f'.repeat(32)}`, '/portal/', '/portal/nothing', `/portal/endpoints/${endpointId}/nothing`]) {
      const page = await get(path);
      expect({ path, status: page.status }).toEqual({ path, status: 404 });
      expect(page.body).toContain('<p id="not-found">');
    }
    const post = await app.inject({ method: 'POST', url: '/portal/nothing', headers: { cookie } });
    expect(post.statusCode).toBe(404);
    expect(post.headers['content-type']).toMatch(/^text\/html/);
  });

  it('shows a forged link’s 401 page without the portal’s links', async () => {
    const forged = await get(
      `/portal/login?token=${issuePortalToken('acme', new Date(), 'another-secret-of-at-least-32-characters', randomUUID()).token}`,
      false,
    );
    expect(forged.status).toBe(401);
    expect(forged.body).toContain('id="denied"');
    expect(forged.body).not.toContain('href="/portal"');
  });

  it('serves its script from the package, allowed by the page’s policy', async () => {
    const response = await app.inject({ method: 'GET', url: '/portal/assets/portal.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/javascript/);
    expect(response.body).toContain('data-copy');
    const page = await app.inject({ method: 'GET', url: `/portal/messages/${messageId(5)}`, headers: { cookie } });
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.body).toContain('<script src="/portal/assets/portal.js" defer></script>');
  });
});
