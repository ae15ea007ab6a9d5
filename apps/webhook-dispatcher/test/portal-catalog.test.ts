import { randomUUID } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { PUBLIC_EVENT_TYPES } from '@storage/domain';
import { createDataSource, query, sql } from '@storage/persistence';
import { createTestDatabase, insertRentalParents, type TestDatabase } from '@storage/testing';
import { issuePortalToken } from '@storage/webhooks';
import { disableEndpoint, seedEndpoint } from './support/endpoints';
import { portalTestApp } from './support/portal-app';

const SECRET = 'portal-catalog-secret-at-least-32-characters';

/** Issue 37: the event catalog, from the zod schemas, and its "Send example" (operation 19's test message) to one endpoint. */
describe('portal event catalog', () => {
  let database: TestDatabase;
  let db: DataSource;
  let app: NestFastifyApplication;
  let cookie: string;

  const get = (url: string) => app.inject({ method: 'GET', url, headers: { cookie } });
  const csrfOf = (page: string): string => /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
  const sendExample = async (type: string, endpointId: string, csrf?: string) => {
    const form = new URLSearchParams({ endpointId, csrf: csrf ?? csrfOf((await get('/portal/catalog')).body) });
    return app.inject({
      method: 'POST',
      url: `/portal/catalog/${type}/send`,
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
    });
  };
  const messagesOf = (endpointId: string) =>
    query(db, sql<{ event_type: string; body: string }>('SELECT event_type, body FROM webhook_messages WHERE endpoint_id = $1'), [endpointId]);

  beforeAll(async () => {
    database = await createTestDatabase();
    db = await createDataSource({ url: database.url, applicationName: 'portal-catalog-test' }).initialize();
    const { portfolioUuid } = await insertRentalParents(db, { portfolioId: 'acme' });
    const [key] = await query(
      db,
      sql<{ uuid: string }>(`INSERT INTO api_keys (key_hash, key_prefix, scope, portfolio_uuids) VALUES ($1, 'sk_cat', 'write', $2) RETURNING uuid
         -- owner-bypass: an api key, a row of apps/api, which the dispatcher cannot depend on`),
      [randomUUID(), [portfolioUuid]],
    );
    app = await portalTestApp(db, SECRET);
    const login = await app.inject({ method: 'GET', url: `/portal/login?token=${issuePortalToken('acme', new Date(), SECRET, key.uuid).token}` });
    cookie = String(login.headers['set-cookie']).split(';')[0];
  });
  afterAll(async () => {
    await app?.close();
    await db?.destroy();
    await database?.drop();
  });

  it('describes every event type: when it is sent, its fields with their types, an example body marked as a test', async () => {
    const page = (await get('/portal/catalog')).body;
    for (const type of PUBLIC_EVENT_TYPES) {
      expect(page).toContain(`<section class="event-type" id="${type}"`);
      expect(page).toContain(`<pre id="${type}-example"`);
    }
    expect(page).toContain('<td><code>unitRental.rentalRecordUuid</code></td>');
    expect(page).toContain('<td><code>billingTemplate.promotions[].discountType</code></td>');
    expect(page).toMatch(/one of &quot;PERCENTAGE&quot;, &quot;AMOUNT_OFF&quot;, &quot;FIXED_RATE&quot;/);
    expect(page).toMatch(/&quot;test&quot;: true\n}<\/pre>/);
  });

  it('sends an example to the chosen endpoint only, marked test: true, and shows it in that endpoint’s log', async () => {
    const chosen = await seedEndpoint(db, { url: 'https://receiver.example/chosen', eventTypes: ['moved-out'] });
    const other = await seedEndpoint(db, { url: 'https://receiver.example/other', eventTypes: ['moved-out'] });
    const answer = await sendExample('moved-out', chosen.id);
    expect(answer.statusCode).toBe(303);
    const [message] = await messagesOf(chosen.id);
    expect(message.event_type).toBe('moved-out');
    expect(JSON.parse(message.body)).toMatchObject({ data: [{ event: 'moved-out' }], test: true });
    expect(await messagesOf(other.id)).toEqual([]);
    const log = await get(String(answer.headers.location));
    expect(log.body).toContain('Example moved-out queued to https://receiver.example/chosen');
    expect(log.body.match(/<tr class="message"/g)).toHaveLength(1);
  });

  it('sends nothing to an endpoint not subscribed to the type, or disabled, and says so', async () => {
    const unsubscribed = await seedEndpoint(db, { url: 'https://receiver.example/auction-only', eventTypes: ['auction'] });
    const disabled = await seedEndpoint(db, { url: 'https://receiver.example/disabled', eventTypes: ['transfer'] });
    await disableEndpoint(db, disabled.id);
    for (const [type, id] of [
      ['transfer', unsubscribed.id],
      ['transfer', disabled.id],
    ] as const) {
      const answer = await sendExample(type, id);
      expect(decodeURIComponent(String(answer.headers.location)).replaceAll('+', ' ')).toContain('nothing was sent');
      expect(await messagesOf(id)).toEqual([]);
    }
  });

  it('refuses a send without the session’s form token, an unknown type, and another portfolio’s endpoint', async () => {
    const endpoint = await seedEndpoint(db, { url: 'https://receiver.example/guarded', eventTypes: ['auction'] });
    const elsewhere = await seedEndpoint(db, { portfolio: 'globex', url: 'https://receiver.example/globex', eventTypes: ['auction'] });
    expect((await sendExample('auction', endpoint.id, 'forged')).statusCode).toBe(403);
    expect((await sendExample('webhook-resend', endpoint.id)).statusCode).toBe(404);
    expect((await sendExample('auction', elsewhere.id)).statusCode).toBe(404);
    expect(await messagesOf(endpoint.id)).toEqual([]);
    expect(await messagesOf(elsewhere.id)).toEqual([]);
  });
});
