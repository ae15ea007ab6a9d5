import { randomUUID } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { createDataSource, query, sql } from '@storage/persistence';
import { createTestDatabase, insertRentalParents, type TestDatabase } from '@storage/testing';
import { issuePortalToken } from '@storage/webhooks';
import { disableEndpoint, seedEndpoint } from './support/endpoints';
import { portalTestApp } from './support/portal-app';

const SECRET = 'portal-security-secret-at-least-32-characters';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/** Issue 14, "scopes do not hold", items 3 (portal side), 5 and 6: the portal in-process, as the service runs it. */
describe('portal security', () => {
  let database: TestDatabase;
  let db: DataSource;
  let app: NestFastifyApplication;
  const keys: Record<'acme' | 'globex', string> = { acme: '', globex: '' };

  const request = async (
    method: 'GET' | 'POST',
    url: string,
    options: { cookie?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
  ): Promise<Answer> => {
    const response = await app.inject({
      method,
      url,
      headers: {
        ...(options.cookie ? { cookie: options.cookie } : {}),
        ...(options.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        ...options.headers,
      },
      ...(options.form ? { payload: new URLSearchParams(options.form).toString() } : {}),
    });
    return { status: response.statusCode, headers: response.headers, body: response.body };
  };
  const link = (portfolio: 'acme' | 'globex') => `/portal/login?token=${issuePortalToken(portfolio, new Date(), SECRET, keys[portfolio]).token}`;
  /** Logs in with a fresh link and answers the session cookie. */
  const login = async (portfolio: 'acme' | 'globex', headers: Record<string, string> = {}): Promise<string> => {
    const answer = await request('GET', link(portfolio), { headers });
    expect(answer.status).toBe(303);
    return String(answer.headers['set-cookie']).split(';')[0];
  };
  const csrfOf = (page: string): string => /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
  const disabled = async (id: string): Promise<boolean> =>
    (await query(db, sql<{ disabled: boolean }>('SELECT disabled_at IS NOT NULL AS disabled FROM webhook_endpoints WHERE id = $1'), [id]))[0].disabled;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = await createDataSource({ url: database.url, applicationName: 'portal-security-test' }).initialize();
    for (const portfolio of ['acme', 'globex'] as const) {
      const { portfolioUuid } = await insertRentalParents(db, { portfolioId: portfolio });
      const [key] = await query(
        db,
        sql<{ uuid: string }>(`INSERT INTO api_keys (key_hash, key_prefix, scope, portfolio_uuids) VALUES ($1, 'sk_test', 'write', $2) RETURNING uuid
           -- owner-bypass: an api key, a row of apps/api, which the dispatcher cannot depend on`),
        [randomUUID(), [portfolioUuid]],
      );
      keys[portfolio] = key.uuid;
    }
    app = await portalTestApp(db, SECRET);
  });
  afterAll(async () => {
    await app?.close();
    await db?.destroy();
    await database?.drop();
  });

  it('a session stops at once when its API key is revoked: pages and actions alike', async () => {
    const cookie = await login('acme');
    const { id } = await seedEndpoint(db, { portfolio: 'acme', url: 'https://receiver.example/revoked' });
    await disableEndpoint(db, id);
    const page = await request('GET', `/portal/endpoints/${id}`, { cookie });
    expect(page.status).toBe(200);
    const csrf = csrfOf(page.body);

    await query(
      db,
      sql('UPDATE api_keys SET revoked_at = now() WHERE uuid = $1 -- owner-bypass: the api revokes its keys, an app the dispatcher cannot depend on'),
      [keys.acme],
    );
    try {
      for (const path of ['/portal', `/portal/endpoints/${id}`, `/portal/endpoints/${id}?reveal=1`]) {
        const answer = await request('GET', path, { cookie });
        expect(answer.status).toBe(401);
        expect(answer.body).not.toContain('receiver.example');
        expect(answer.body).not.toContain('whsec_');
      }
      expect((await request('POST', `/portal/endpoints/${id}/enable`, { cookie, form: { csrf } })).status).toBe(401);
      expect(await disabled(id)).toBe(true);
      // A new link of the revoked key does not log in either.
      expect((await request('GET', link('acme'))).status).toBe(401);
    } finally {
      await query(
        db,
        sql('UPDATE api_keys SET revoked_at = NULL WHERE uuid = $1 -- owner-bypass: the key back for the next tests, a state its owner never produces'),
        [keys.acme],
      );
    }
  });

  it('refuses a POST without the form token of the session, or with another session’s, changing nothing', async () => {
    const cookie = await login('acme');
    await new Promise((resolve) => setTimeout(resolve, 5)); // another expiry, so another token
    const other = await login('acme');
    expect(other).not.toBe(cookie);
    const { id } = await seedEndpoint(db, { portfolio: 'acme', url: 'https://receiver.example/csrf' });
    await disableEndpoint(db, id);

    expect((await request('POST', `/portal/endpoints/${id}/enable`, { cookie })).status).toBe(403);
    expect((await request('POST', `/portal/endpoints/${id}/enable`, { cookie, form: { csrf: 'forged' } })).status).toBe(403);
    const othersToken = csrfOf((await request('GET', `/portal/endpoints/${id}`, { cookie: other })).body);
    expect((await request('POST', `/portal/endpoints/${id}/enable`, { cookie, form: { csrf: othersToken } })).status).toBe(403);
    expect(await disabled(id)).toBe(true);

    const page = await request('GET', `/portal/endpoints/${id}`, { cookie });
    // Every POST form of the page carries the token.
    const forms = page.body.match(/<form[^>]*method="post"[\s\S]*?<\/form>/g) ?? [];
    expect(forms.length).toBeGreaterThan(0);
    for (const form of forms) expect(form).toContain('name="csrf"');
    const enabled = await request('POST', `/portal/endpoints/${id}/enable`, { cookie, form: { csrf: csrfOf(page.body) } });
    expect(enabled.status).toBe(303);
    expect(await disabled(id)).toBe(false);
  });

  it('a link of another portfolio does not replace the session silently: it asks, and switches only when confirmed', async () => {
    const cookie = await login('acme');
    const globexLink = link('globex');
    const asked = await request('GET', globexLink, { cookie });
    expect(asked.status).toBe(409);
    expect(asked.headers['set-cookie']).toBeUndefined();
    expect(asked.body).toContain('acme');
    expect(asked.body).toContain('globex');
    expect((await request('GET', '/portal', { cookie })).body).toContain('Endpoints of acme');

    // The confirmation is a POST of the same session (its form token), never a cross-site GET.
    const token = new URL(globexLink, 'http://portal.test').searchParams.get('token')!;
    expect((await request('POST', '/portal/login', { cookie, form: { token } })).status).toBe(403);
    const switched = await request('POST', '/portal/login', { cookie, form: { token, csrf: csrfOf(asked.body) } });
    expect(switched.status).toBe(303);
    const globexCookie = String(switched.headers['set-cookie']).split(';')[0];
    expect((await request('GET', '/portal', { cookie: globexCookie })).body).toContain('Endpoints of globex');
  });

  it('marks the cookie Secure when the browser came over HTTPS (directly or through the proxy), not over plain HTTP', async () => {
    const viaProxy = await request('GET', link('acme'), { headers: { 'x-forwarded-proto': 'https' } });
    expect(String(viaProxy.headers['set-cookie'])).toMatch(/; Secure/);
    expect(String(viaProxy.headers['set-cookie'])).toMatch(/HttpOnly/);
    const plain = await request('GET', link('acme'));
    expect(String(plain.headers['set-cookie'])).not.toMatch(/Secure/);
    expect(String(plain.headers['set-cookie'])).toMatch(/; SameSite=Lax/);
  });

  it('marks the cookie Secure whenever the portal is served at an https PORTAL_BASE_URL, even if the proxy does not say how the browser came', async () => {
    const served = await portalTestApp(db, SECRET, { portalBaseUrl: 'https://webhooks.example' });
    try {
      const login = await served.inject({ method: 'GET', url: link('acme') });
      expect(login.statusCode).toBe(303);
      expect(String(login.headers['set-cookie'])).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
      // The switch of portfolio sets the cookie too.
      const cookie = String(login.headers['set-cookie']).split(';')[0];
      const asked = await served.inject({ method: 'GET', url: link('globex'), headers: { cookie } });
      const switched = await served.inject({
        method: 'POST',
        url: '/portal/login',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          token: new URL(link('globex'), 'https://webhooks.example').searchParams.get('token')!,
          csrf: csrfOf(asked.body),
        }).toString(),
      });
      expect(switched.statusCode).toBe(303);
      expect(String(switched.headers['set-cookie'])).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
    } finally {
      await served.close();
    }
  });

  it('sends X-Content-Type-Options: nosniff on every portal answer', async () => {
    const cookie = await login('acme');
    for (const answer of [await request('GET', '/portal', { cookie }), await request('GET', '/portal'), await request('GET', '/portal/login?token=x')]) {
      expect(answer.headers['x-content-type-options']).toBe('nosniff');
    }
  });
});
