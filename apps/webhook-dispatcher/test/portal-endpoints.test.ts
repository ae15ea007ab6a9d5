import { randomUUID } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { createDataSource, query, sql } from '@storage/persistence';
import { createTestDatabase, insertRentalParents, type TestDatabase } from '@storage/testing';
import { issuePortalToken } from '@storage/webhooks';
import { seedEndpoint } from './support/endpoints';
import { portalTestApp } from './support/portal-app';
import { testKeyring } from './support/secret-keys';

const SECRET = 'portal-endpoints-secret-at-least-32-characters';
const FACILITY = '0B6F0D3E-8E4B-4C1A-9D62-5A4C8B3E2F10';

interface Stored {
  id: string;
  vendor_name: string;
  url: string;
  description: string;
  event_types: string[];
  facility_uuids: string[];
  unit_types: string[];
  secret: string;
  disabled_reason: string | null;
}

/** Issue 37: endpoints added, edited, disabled and deleted from the portal, under operation 15's rules. */
describe('portal endpoint management', () => {
  let database: TestDatabase;
  let db: DataSource;
  let app: NestFastifyApplication;
  let cookie: string;
  let csrf: string;

  const post = (url: string, form: Record<string, string | string[]>, token = csrf) => {
    const body = new URLSearchParams();
    for (const [name, value] of Object.entries({ ...form, csrf: token })) for (const one of [value].flat()) body.append(name, one);
    return app.inject({ method: 'POST', url, headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: body.toString() });
  };
  const stored = (url: string) =>
    query(
      db,
      sql<Stored>(
        `SELECT id, vendor_name, url, description, event_types, facility_uuids, unit_types, secret, disabled_reason FROM webhook_endpoints WHERE url = $1`,
      ),
      [url],
    );
  const problemsOf = (page: string): string[] => [...page.matchAll(/<li>([^<]+)<\/li>/g)].map((match) => match[1]);

  beforeAll(async () => {
    database = await createTestDatabase();
    db = await createDataSource({ url: database.url, applicationName: 'portal-endpoints-test' }).initialize();
    const { portfolioUuid } = await insertRentalParents(db, { portfolioId: 'acme' });
    const [key] = await query(
      db,
      sql<{ uuid: string }>(`INSERT INTO api_keys (key_hash, key_prefix, scope, portfolio_uuids) VALUES ($1, 'sk_ep', 'write', $2) RETURNING uuid
         -- owner-bypass: an api key, a row of apps/api, which the dispatcher cannot depend on`),
      [randomUUID(), [portfolioUuid]],
    );
    app = await portalTestApp(db, SECRET);
    const login = await app.inject({ method: 'GET', url: `/portal/login?token=${issuePortalToken('acme', new Date(), SECRET, key.uuid).token}` });
    cookie = String(login.headers['set-cookie']).split(';')[0];
    const form = await app.inject({ method: 'GET', url: '/portal/endpoints/new', headers: { cookie } });
    csrf = /name="csrf" value="([^"]+)"/.exec(form.body)![1];
  });
  afterAll(async () => {
    await app?.close();
    await db?.destroy();
    await database?.drop();
  });

  it('adds an endpoint as operation 15 does: types in their order, filters lower case once each, the secret sealed and shown', async () => {
    const answer = await post('/portal/endpoints', {
      vendorName: 'Acme CRM',
      url: 'https://crm.example/hooks',
      description: 'the CRM',
      eventTypes: ['transfer', 'moved-in'],
      facilityUuids: `${FACILITY}, ${FACILITY.toLowerCase()}`,
      unitTypes: '',
    });
    expect(answer.statusCode).toBe(303);
    const [endpoint] = await stored('https://crm.example/hooks');
    expect(endpoint).toMatchObject({
      vendor_name: 'Acme CRM',
      description: 'the CRM',
      event_types: ['moved-in', 'transfer'],
      facility_uuids: [FACILITY.toLowerCase()],
      unit_types: [],
    });
    expect(answer.headers.location).toContain(`/portal/endpoints/${endpoint.id}?`);
    const page = await app.inject({ method: 'GET', url: String(answer.headers.location), headers: { cookie } });
    expect(page.body).toContain(`<code id="secret">${testKeyring.open(endpoint.secret, endpoint.id)}</code>`);
  });

  it.each([
    ['plain http', { url: 'http://crm.example/hooks' }, 'URL refused'],
    ['a private address', { url: 'https://crm.internal/hooks' }, 'URL refused'],
    ['a name that does not resolve', { url: 'https://nowhere.invalid/hooks' }, 'URL refused'],
    ['no event type', { eventTypes: [] }, 'Choose one or more of the event types listed.'],
    ['an unknown event type', { eventTypes: ['moved-in', 'webhook-resend'] }, 'Choose one or more of the event types listed.'],
    ['a filter that is not uuids', { unitTypes: 'studio' }, 'Unit types: give uuids only, separated by spaces, commas or lines.'],
    ['no vendor', { vendorName: '' }, 'Give a vendor name of 1 to 200 characters.'],
  ])('refuses %s, saves nothing and shows the form again as it was sent', async (_, change, problem) => {
    const form = { vendorName: 'Refused', url: 'https://refused.example/hooks', eventTypes: ['auction'], ...change };
    const answer = await post('/portal/endpoints', form);
    expect(answer.statusCode).toBe(400);
    expect(problemsOf(answer.body).join(' ')).toContain(problem);
    expect(answer.body).toContain(`value="${form.url}"`);
    expect(await stored(form.url)).toEqual([]);
  });

  it('refuses a second endpoint of the same vendor or URL, saying which', async () => {
    await seedEndpoint(db, { url: 'https://taken.example/hooks', vendorName: 'Taken' });
    const byUrl = await post('/portal/endpoints', { vendorName: 'Other', url: 'https://taken.example/hooks', eventTypes: 'auction' });
    expect(problemsOf(byUrl.body)).toEqual(['https://taken.example/hooks is already an endpoint of this portfolio.']);
    const byVendor = await post('/portal/endpoints', { vendorName: 'Taken', url: 'https://free.example/hooks', eventTypes: 'auction' });
    expect(problemsOf(byVendor.body)).toEqual(['Vendor Taken already has an endpoint in this portfolio.']);
  });

  it('edits the URL (under the same rules), event types, filters and description; the vendor stays', async () => {
    const { id } = await seedEndpoint(db, { url: 'https://before.example/hooks', vendorName: 'Editor' });
    const refused = await post(`/portal/endpoints/${id}/edit`, { vendorName: 'Renamed', url: 'https://before.internal/hooks', eventTypes: 'auction' });
    expect(refused.statusCode).toBe(400);
    expect((await stored('https://before.example/hooks'))[0].event_types).toHaveLength(7);
    const saved = await post(`/portal/endpoints/${id}/edit`, {
      vendorName: 'Renamed',
      url: 'https://after.example/hooks',
      description: 'edited',
      eventTypes: ['auction', 'moved-out'],
      unitTypes: FACILITY,
    });
    expect(saved.statusCode).toBe(303);
    expect(await stored('https://after.example/hooks')).toMatchObject([
      { id, vendor_name: 'Editor', description: 'edited', event_types: ['moved-out', 'auction'], unit_types: [FACILITY.toLowerCase()] },
    ]);
  });

  it('disables and enables an endpoint', async () => {
    const { id } = await seedEndpoint(db, { url: 'https://switch.example/hooks' });
    expect((await post(`/portal/endpoints/${id}/disable`, {})).statusCode).toBe(303);
    expect((await stored('https://switch.example/hooks'))[0].disabled_reason).toBe('disabled in the portal');
    expect((await post(`/portal/endpoints/${id}/enable`, {})).statusCode).toBe(303);
    expect((await stored('https://switch.example/hooks'))[0].disabled_reason).toBeNull();
  });

  it('deletes an endpoint, its log with it, only after a confirmation page and with the form token', async () => {
    const { id } = await seedEndpoint(db, { url: 'https://doomed.example/hooks' });
    await query(
      db,
      sql(`INSERT INTO webhook_messages (id, endpoint_id, portfolio, event_id, event_type, body, status, attempts, created_at)
         VALUES ($1, $2, 'acme', 'doomed-event', 'moved-in', '{}', 'succeeded', 1, now())`),
      [`msg_${randomUUID().replaceAll('-', '')}`, id],
    );
    const confirm = await app.inject({ method: 'GET', url: `/portal/endpoints/${id}/delete`, headers: { cookie } });
    expect(confirm.body).toContain(`<form method="post" action="/portal/endpoints/${id}/delete">`);
    expect((await post(`/portal/endpoints/${id}/delete`, {}, 'forged')).statusCode).toBe(403);
    expect(await stored('https://doomed.example/hooks')).toHaveLength(1);
    const deleted = await post(`/portal/endpoints/${id}/delete`, {});
    expect(deleted.statusCode).toBe(303);
    expect(await stored('https://doomed.example/hooks')).toEqual([]);
    expect(await query(db, sql(`SELECT 1 FROM webhook_messages WHERE endpoint_id = $1`), [id])).toEqual([]);
  });

  it('reaches no endpoint of another portfolio', async () => {
    const { id } = await seedEndpoint(db, { portfolio: 'globex', url: 'https://globex.example/hooks' });
    for (const action of ['edit', 'disable', 'delete']) {
      expect((await post(`/portal/endpoints/${id}/${action}`, { url: 'https://stolen.example/hooks', eventTypes: 'auction' })).statusCode).toBe(404);
    }
    expect(await stored('https://globex.example/hooks')).toMatchObject([{ disabled_reason: null }]);
  });
});
