import { randomUUID } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { createDataSource, query, sql } from '@storage/persistence';
import { createTestDatabase, insertRentalParents, type TestDatabase } from '@storage/testing';
import { issuePortalToken, removeSubscription } from '@storage/webhooks';
import { deniedPage } from '../src/portal/portal-pages';
import { csrfToken, SESSION_COOKIE } from '../src/portal/portal-session';
import { disableEndpoint, seedEndpoint } from './support/endpoints';
import { portalTestApp } from './support/portal-app';

const SECRET = 'portal-scope-walk-secret-at-least-32-characters';
const ENDPOINT_URL = 'https://receiver.example/scope-walk';

interface Answer {
  status: number;
  body: string;
}

/** One portal action as a session of `token` would send it: its cookie, its form token (valid, so only the scope decides). */
interface Action {
  route: string;
  send: (token: string) => Promise<Answer>;
}

/**
 * Issue 14, "a scope walk": every portal route × the key a link was issued to. Links are minted here for any key
 * (a read key cannot get one from operation 20, but a link outlives a key's scope or revocation): a read key's,
 * a revoked key's, one naming acme issued to globex's key, and globex's own on acme's endpoint are refused and
 * change nothing; acme's write key makes every action succeed.
 */
describe('portal scope walk', () => {
  let database: TestDatabase;
  let db: DataSource;
  let app: NestFastifyApplication;
  const routes: string[] = [];
  const keys = { write: '', read: '', revoked: '', globex: '' };
  let endpointId: string;
  /** An endpoint for the delete action, apart from the one the other actions change. */
  let deletableId: string;
  let messageId: string;

  const request = async (method: 'GET' | 'POST', url: string, token: string, form?: Record<string, string>): Promise<Answer> => {
    const response = await app.inject({
      method,
      url,
      headers: {
        // No token, no cookie: a visitor who never opened a link.
        ...(token === '' ? {} : { cookie: `${SESSION_COOKIE}=${encodeURIComponent(token)}` }),
        ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      ...(form ? { payload: new URLSearchParams(form).toString() } : {}),
    });
    return { status: response.statusCode, body: response.body };
  };
  const linkOf = (portfolio: string, keyUuid: string, issuedAt = new Date()): string => issuePortalToken(portfolio, issuedAt, SECRET, keyUuid).token;
  const post = (url: string, token: string, form: Record<string, string> = {}) => request('POST', url, token, { csrf: csrfToken(SECRET, token), ...form });

  const actions = (): Action[] => [
    { route: 'GET /portal/login', send: (token) => request('GET', `/portal/login?token=${encodeURIComponent(token)}`, token) },
    { route: 'POST /portal/login', send: (token) => post('/portal/login', token, { token }) },
    { route: 'GET /portal', send: (token) => request('GET', '/portal', token) },
    { route: 'GET /portal/endpoints/:id', send: (token) => request('GET', `/portal/endpoints/${endpointId}`, token) },
    { route: 'GET /portal/endpoints/:id', send: (token) => request('GET', `/portal/endpoints/${endpointId}?reveal=1`, token) },
    { route: 'POST /portal/endpoints/:id/rotate', send: (token) => post(`/portal/endpoints/${endpointId}/rotate`, token) },
    { route: 'POST /portal/endpoints/:id/disable', send: (token) => post(`/portal/endpoints/${endpointId}/disable`, token) },
    { route: 'POST /portal/endpoints/:id/enable', send: (token) => post(`/portal/endpoints/${endpointId}/enable`, token) },
    {
      route: 'POST /portal/endpoints/:id/delivery',
      send: (token) => post(`/portal/endpoints/${endpointId}/delivery`, token, { orderedDelivery: 'on', maxInFlight: '4' }),
    },
    {
      route: 'POST /portal/endpoints/:id/recover',
      send: (token) => post(`/portal/endpoints/${endpointId}/recover`, token, { since: new Date(Date.now() - 7_200_000).toISOString() }),
    },
    { route: 'GET /portal/endpoints/new', send: (token) => request('GET', '/portal/endpoints/new', token) },
    {
      route: 'POST /portal/endpoints',
      send: (token) => post('/portal/endpoints', token, { vendorName: 'walk-added', url: 'https://receiver.example/walk-added', eventTypes: 'auction' }),
    },
    { route: 'GET /portal/endpoints/:id/edit', send: (token) => request('GET', `/portal/endpoints/${endpointId}/edit`, token) },
    {
      route: 'POST /portal/endpoints/:id/edit',
      send: (token) => post(`/portal/endpoints/${endpointId}/edit`, token, { url: ENDPOINT_URL, description: 'walked', eventTypes: 'moved-in' }),
    },
    { route: 'GET /portal/endpoints/:id/delete', send: (token) => request('GET', `/portal/endpoints/${deletableId}/delete`, token) },
    { route: 'POST /portal/endpoints/:id/delete', send: (token) => post(`/portal/endpoints/${deletableId}/delete`, token) },
    { route: 'GET /portal/messages/:id', send: (token) => request('GET', `/portal/messages/${messageId}`, token) },
    { route: 'POST /portal/messages/:id/resend', send: (token) => post(`/portal/messages/${messageId}/resend`, token) },
    { route: 'GET /portal/search', send: (token) => request('GET', `/portal/search?search=${messageId}`, token) },
    { route: 'GET /portal/catalog', send: (token) => request('GET', '/portal/catalog', token) },
    { route: 'POST /portal/catalog/:type/send', send: (token) => post('/portal/catalog/moved-in/send', token, { endpointId }) },
    { route: 'GET /portal/assets/portal.js', send: (token) => request('GET', '/portal/assets/portal.js', token) },
    { route: 'GET /portal/*', send: (token) => request('GET', '/portal/', token) },
    { route: 'GET /portal/*', send: (token) => request('GET', `/portal/endpoints/${endpointId}/nothing-here`, token) },
    { route: 'POST /portal/*', send: (token) => post(`/portal/endpoints/${endpointId}/delete-everything`, token) },
  ];
  /** What answers the same to every link: the script (no data in it) and the not-found page of unknown paths. */
  const sessionless: Record<string, number> = { 'GET /portal/assets/portal.js': 200, 'GET /portal/*': 404, 'POST /portal/*': 404 };

  /** A digest of every row of every table: equal digests, nothing changed. */
  const snapshot = async (): Promise<Record<string, string>> => {
    const tables = await query(
      db,
      sql<{ name: string }>(
        `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
      ),
    );
    const digests = await Promise.all(
      tables.map(async ({ name }) => {
        const [row] = await query(
          db,
          sql<{ digest: string }>(`SELECT count(*) || ':' || coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '') AS digest FROM "${name}" t`),
        );
        return [name, row.digest] as const;
      }),
    );
    return Object.fromEntries(digests);
  };

  const insertKey = async (scope: 'read' | 'write', portfolioUuid: string, revoked = false): Promise<string> => {
    const [key] = await query(
      db,
      sql<{ uuid: string }>(
        `INSERT INTO api_keys (key_hash, key_prefix, scope, portfolio_uuids, revoked_at) VALUES ($1, 'sk_walk', $2, $3, $4) RETURNING uuid
         -- owner-bypass: an api key, a row of apps/api, which the dispatcher cannot depend on`,
      ),
      [randomUUID(), scope, [portfolioUuid], revoked ? new Date() : null],
    );
    return key.uuid;
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    db = await createDataSource({ url: database.url, applicationName: 'portal-scope-walk' }).initialize();
    const acme = (await insertRentalParents(db, { portfolioId: 'acme' })).portfolioUuid;
    const globex = (await insertRentalParents(db, { portfolioId: 'globex' })).portfolioUuid;
    keys.write = await insertKey('write', acme);
    keys.read = await insertKey('read', acme);
    keys.revoked = await insertKey('write', acme, true);
    keys.globex = await insertKey('write', globex);

    // A disabled endpoint with a failed message: something for every action to change.
    ({ id: endpointId } = await seedEndpoint(db, { portfolio: 'acme', url: ENDPOINT_URL }));
    await disableEndpoint(db, endpointId, 'walk');
    ({ id: deletableId } = await seedEndpoint(db, { portfolio: 'acme', url: 'https://receiver.example/scope-walk-deletable' }));
    messageId = `msg_${randomUUID().replaceAll('-', '')}`;
    await query(
      db,
      sql(`INSERT INTO webhook_messages (id, endpoint_id, portfolio, event_id, event_type, body, status, attempts, created_at)
       VALUES ($1, $2, 'acme', 'walk-event', 'moved-in', '{}', 'failed', 8, now() - interval '1 hour')`),
      [messageId, endpointId],
    );

    app = await portalTestApp(db, SECRET, {
      onRoute: (route) => {
        for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push(`${method} ${route.url}`);
      },
    });
  });
  afterAll(async () => {
    await app?.close();
    await db?.destroy();
    await database?.drop();
  });

  it('walks every route the portal registers', () => {
    expect([...new Set(actions().map((action) => action.route))].sort()).toEqual([...new Set(routes)].sort());
  });

  it.each([
    ['a read key', () => linkOf('acme', keys.read)],
    ['a revoked key', () => linkOf('acme', keys.revoked)],
    ['another portfolio’s key, on a link naming this portfolio', () => linkOf('acme', keys.globex)],
  ])('a link of %s is refused on every action (401), shows nothing and changes nothing', async (_, token) => {
    const before = await snapshot();
    for (const action of actions()) {
      const answer = await action.send(token());
      expect({ route: action.route, status: answer.status }).toEqual({ route: action.route, status: sessionless[action.route] ?? 401 });
      expect(answer.body).not.toContain(ENDPOINT_URL);
      expect(answer.body).not.toContain('whsec_');
    }
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    ['missing', 'no session at all', (): string => ''],
    ['expired', 'an expired link', (): string => linkOf('acme', keys.write, new Date(Date.now() - 30 * 86_400_000))],
  ] as const)('answers %s (%s) with the denied page on every page and form post (401), changing nothing', async (reason, _, token) => {
    const before = await snapshot();
    for (const action of actions()) {
      const answer = await action.send(token());
      const status = sessionless[action.route] ?? 401;
      expect({ route: action.route, status: answer.status }).toEqual({ route: action.route, status });
      if (status === 401) expect({ route: action.route, body: answer.body }).toEqual({ route: action.route, body: deniedPage(reason) });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('another portfolio’s own link reaches none of this portfolio’s endpoints or messages (404), and changes nothing', async () => {
    const token = linkOf('globex', keys.globex);
    const before = await snapshot();
    const expected: Record<string, number> = {
      ...sessionless,
      'GET /portal/login': 303,
      'POST /portal/login': 303,
      'GET /portal': 200,
      'GET /portal/catalog': 200,
      'GET /portal/search': 200,
      'GET /portal/endpoints/new': 200,
      // Adds the endpoint to globex, its own portfolio: removed below, so the snapshot shows acme unchanged.
      'POST /portal/endpoints': 303,
    };
    for (const action of actions()) {
      const answer = await action.send(token);
      expect({ route: action.route, status: answer.status }).toEqual({ route: action.route, status: expected[action.route] ?? 404 });
      expect(answer.body).not.toContain(ENDPOINT_URL);
      expect(answer.body).not.toContain('whsec_');
    }
    const added = await query(db, sql<{ id: string }>(`SELECT id FROM webhook_endpoints WHERE portfolio = 'globex'`));
    expect(added).toHaveLength(1);
    for (const { id } of added) await removeSubscription(db, id);
    expect(await snapshot()).toEqual(before);
  });

  it('the write key of the portfolio makes every action succeed (so the refusals above were of valid actions)', async () => {
    const token = linkOf('acme', keys.write);
    const [{ secret: sealedBefore }] = await query(db, sql<{ secret: string }>('SELECT secret FROM webhook_endpoints WHERE id = $1'), [endpointId]);
    const expected: Record<string, number> = {
      ...sessionless,
      'GET /portal': 200,
      'GET /portal/endpoints/:id': 200,
      'GET /portal/messages/:id': 200,
      'GET /portal/catalog': 200,
      'GET /portal/search': 200,
      'GET /portal/endpoints/new': 200,
      'GET /portal/endpoints/:id/edit': 200,
      'GET /portal/endpoints/:id/delete': 200,
    };
    for (const action of actions()) {
      const answer = await action.send(token);
      expect({ route: action.route, status: answer.status }).toEqual({ route: action.route, status: expected[action.route] ?? 303 });
    }
    const endpoints = await query(db, sql<{ url: string; description: string }>(`SELECT url, description FROM webhook_endpoints ORDER BY url`));
    expect(endpoints).toEqual([
      { url: ENDPOINT_URL, description: 'walked' },
      { url: 'https://receiver.example/walk-added', description: '' },
    ]);
    expect((await request('GET', `/portal/endpoints/${endpointId}?reveal=1`, token)).body).toContain('whsec_');
    const [endpoint] = await query(
      db,
      sql<{ secret: string; disabled: boolean; ordered: boolean; limit: number }>(
        'SELECT secret, disabled_at IS NOT NULL AS disabled, ordered_delivery AS ordered, max_in_flight AS limit FROM webhook_endpoints WHERE id = $1',
      ),
      [endpointId],
    );
    expect(endpoint.secret).not.toBe(sealedBefore);
    expect(endpoint).toMatchObject({ disabled: false, ordered: true, limit: 4 });
    const [message] = await query(db, sql<{ status: string }>('SELECT status FROM webhook_messages WHERE id = $1'), [messageId]);
    expect(message.status).toBe('pending');
  });

  it.each(['0', '257', '1.5', '', 'many'])('refuses %p deliveries in flight with a notice, and changes nothing', async (maxInFlight) => {
    const token = linkOf('acme', keys.write);
    const before = await snapshot();
    const response = await app.inject({
      method: 'POST',
      url: `/portal/endpoints/${endpointId}/delivery`,
      headers: { cookie: `${SESSION_COOKIE}=${encodeURIComponent(token)}`, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ csrf: csrfToken(SECRET, token), maxInFlight }).toString(),
    });
    expect(response.statusCode).toBe(303);
    expect(decodeURIComponent(String(response.headers.location)).replaceAll('+', ' ')).toContain('whole number from 1 to 256');
    expect(await snapshot()).toEqual(before);
  });
});
