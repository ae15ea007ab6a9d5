import { hostname } from 'node:os';
import path from 'node:path';
import { PUBLIC_EVENT_TYPES } from '@storage/domain';
import { checkPortalToken, DEVELOPMENT_PORTAL_TOKEN_SECRET, GENERATED_SECRET_KEY_FILE, openSecretKeyring, removeSubscription } from '@storage/webhooks';
import { expectProblem, id, startTestApi, UUID, type TestApi } from './support/test-api';
import { hashApiKey } from '../src/auth/api-key';
import { query, sql } from '@storage/persistence';

const BASE = '/api/v1/webhooks';
const GOOD_URL = 'https://93.184.216.34/hooks/storage';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api.close());
// Each test starts without subscriptions, removed as operation 18 removes one.
beforeEach(async () => {
  for (const { id } of await query(api.db, sql<{ id: string }>('SELECT id FROM webhook_endpoints'))) await removeSubscription(api.db, id);
});

const create = (overrides: Record<string, unknown> = {}, key?: string) =>
  api.call('POST', `${BASE}/subscriptions`, {
    body: { vendorName: 'acme-crm', targetUrl: GOOD_URL, eventTypes: ['moved-in', 'moved-out'], description: 'CRM sync', portfolio: 'demo', ...overrides },
    ...(key ? { key } : {}),
  });
const endpointCount = async () => (await query(api.db, sql<{ n: number }>('SELECT count(*)::int AS n FROM webhook_endpoints')))[0].n;
/** The delivery settings of the one endpoint, as the dispatcher reads them. */
const storedSettings = async () =>
  query(api.db, sql<{ ordered_delivery: boolean; max_in_flight: number }>('SELECT ordered_delivery, max_in_flight FROM webhook_endpoints'));
const patch = (body: Record<string, unknown>) => api.call('PATCH', `${BASE}/subscriptions?targetUrl=${encodeURIComponent(GOOD_URL)}`, { body });

/** Delivery settings refused (null included: only absence takes the default or keeps the value). */
const BAD_SETTINGS: [string, unknown][] = [
  ['orderedDelivery', 'true'],
  ['orderedDelivery', 1],
  ['orderedDelivery', null],
  ['maxInFlight', 0],
  ['maxInFlight', 257],
  ['maxInFlight', 1.5],
  ['maxInFlight', '16'],
  ['maxInFlight', true],
  ['maxInFlight', null],
];

describe('operation 15: create subscription', () => {
  it('returns the subscription with its whsec_ secret once, databasePrefix = portfolio', async () => {
    const facility = id('facility:downtown');
    const reply = await create({ facilityUuids: [facility.toUpperCase()], unitTypes: [id('unit-type:1')] });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      endpointId: expect.stringMatching(UUID),
      applicationId: 'app_demo',
      url: GOOD_URL,
      subscribedEventTypes: ['moved-in', 'moved-out'],
      facilityUuids: [facility],
      amenityUuids: [],
      unitTypes: [id('unit-type:1')],
      databasePrefix: 'demo',
      orderedDelivery: false,
      maxInFlight: 16,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
    });
    expect(await storedSettings()).toEqual([{ ordered_delivery: false, max_in_flight: 16 }]);
    const list = await api.call('GET', `${BASE}/subscriptions`);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
  });

  it('stores the secret sealed with the key generated under DATA_DIR, never in plain text', async () => {
    const reply = await create();
    expect(reply.status).toBe(200);
    const { endpointId, secret } = reply.body as { endpointId: string; secret: string };
    const [row] = await query(
      api.db,
      sql<{ secret: string; previous_secret: string | null }>('SELECT secret, previous_secret FROM webhook_endpoints WHERE id = $1'),
      [endpointId],
    );
    expect(row.secret).toMatch(/^v1:local-[0-9a-f]{8}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$/);
    expect(row.secret).not.toContain(secret.slice('whsec_'.length));
    expect(row.previous_secret).toBeNull();
    // What the dispatcher will do to sign: open it with the same key file.
    const keyring = await openSecretKeyring({ generatedKeyFile: path.join(api.dataDir, GENERATED_SECRET_KEY_FILE) });
    expect(keyring.open(row.secret, endpointId)).toBe(secret);
  });

  it('sets ordered delivery and the in-flight limit, answered, stored and listed', async () => {
    const reply = await create({ orderedDelivery: true, maxInFlight: 256 });
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ orderedDelivery: true, maxInFlight: 256 });
    expect(await storedSettings()).toEqual([{ ordered_delivery: true, max_in_flight: 256 }]);
    const list = await api.call('GET', `${BASE}/subscriptions`);
    expect(list.body.items).toEqual([
      expect.objectContaining({ eventType: 'moved-in', orderedDelivery: true, maxInFlight: 256 }),
      expect.objectContaining({ eventType: 'moved-out', orderedDelivery: true, maxInFlight: 256 }),
    ]);
    await create({ vendorName: 'other', targetUrl: 'https://93.184.216.35/x', maxInFlight: 1 });
    const other = await api.call('GET', `${BASE}/subscriptions?targetUrl=${encodeURIComponent('https://93.184.216.35/x')}`);
    expect(other.body.items).toEqual([
      expect.objectContaining({ orderedDelivery: false, maxInFlight: 1 }),
      expect.objectContaining({ orderedDelivery: false, maxInFlight: 1 }),
    ]);
  });

  it.each(BAD_SETTINGS)('refuses %s %p with a 400 on it and stores nothing', async (field, value) => {
    const problem = expectProblem(await create({ [field]: value }), 400, [field]);
    expect(new Set(problem.errors?.map((error) => error.field))).toEqual(new Set([field]));
    expect(await endpointCount()).toBe(0);
  });

  it('names every event type that is not one of the seven hyphenated names', async () => {
    const reply = await create({ eventTypes: ['moved-in', 'moved_out', 'move_in'] });
    const problem = expectProblem(reply, 400, ['eventTypes[1]', 'eventTypes[2]']);
    expect(problem.errors?.[0]?.message).toMatch(/^"moved_out" is not an event type; use one of moved-in, /);
    expect(await endpointCount()).toBe(0);
  });

  it('answers missing or malformed fields with a 400 naming them', async () => {
    expectProblem(await api.call('POST', `${BASE}/subscriptions`, { body: { targetUrl: GOOD_URL } }), 400, [
      'vendorName',
      'eventTypes',
      'description',
      'portfolio',
    ]);
    expectProblem(await create({ eventTypes: [] }), 400, ['eventTypes']);
    expectProblem(await create({ facilityUuids: ['not-a-uuid'] }), 400, ['facilityUuids']);
    expectProblem(await create({ targetUrl: 42 }), 400, ['targetUrl']);
  });

  it('refuses a second endpoint for the same URL or vendor with 409', async () => {
    expect((await create()).status).toBe(200);
    expectProblem(await create({ vendorName: 'other-vendor' }), 409);
    expectProblem(await create({ targetUrl: 'https://93.184.216.35/x' }), 409);
  });

  const HOSTILE = [
    'http://93.184.216.34/hook',
    'https://93.184.216.34/hook?x=1',
    'https://93.184.216.34/hook?',
    'https://localhost/hook',
    'https://localhost.:8443/hook',
    'https://admin.localhost/hook',
    'https://127.0.0.1/hook',
    'https://127.0.0.53/hook',
    'https://2130706433/hook',
    'https://0177.0.0.1/hook',
    'https://0x7f.0.0.1/hook',
    'https://0x7f000001/hook',
    'https://127.1/hook',
    'https://0.0.0.0/hook',
    'https://10.0.0.5/hook',
    'https://172.16.0.1/hook',
    'https://192.168.1.1/hook',
    'https://169.254.169.254/latest/meta-data/',
    'https://100.64.0.1/hook',
    'https://224.0.0.251/hook',
    'https://255.255.255.255/hook',
    'https://[::1]/hook',
    'https://[::]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[::ffff:a00:1]/hook',
    'https://[fe80::1]/hook',
    'https://[fd00::1]/hook',
    'https://[ff02::1]/hook',
    'https://[64:ff9b::a00:1]/hook',
    'https://user:secret@93.184.216.34/hook',
    // This machine's own name resolves (through /etc/hosts) to a loopback or private address.
    `https://${hostname()}/hook`,
    'ftp://93.184.216.34/hook',
    'not a url',
  ];

  it.each(HOSTILE)('refuses the target %s with a 400 on targetUrl and stores nothing', async (targetUrl) => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(30);
    const problem = expectProblem(await create({ targetUrl }), 400, ['targetUrl']);
    expect(problem.errors?.[0]?.message).toMatch(/^targetUrl /);
    expect(await endpointCount()).toBe(0);
  });
});

describe('operation 16: list subscriptions', () => {
  beforeEach(async () => {
    await create();
    await create({ vendorName: 'billing', targetUrl: 'https://93.184.216.35/b', eventTypes: ['rent-change'] });
  });

  it('lists one item per event type, with the spec fields', async () => {
    const reply = await api.call('GET', `${BASE}/subscriptions`);
    expect(reply.status).toBe(200);
    expect(reply.body.applicationId).toBe('app_demo');
    expect(reply.body.items).toEqual([
      ...['moved-in', 'moved-out'].map((eventType) => ({
        url: GOOD_URL,
        description: 'CRM sync',
        eventType,
        facilityUuids: [],
        unitTypes: [],
        amenityUuids: [],
        portfolio: 'demo',
        orderedDelivery: false,
        maxInFlight: 16,
      })),
      {
        url: 'https://93.184.216.35/b',
        description: 'CRM sync',
        eventType: 'rent-change',
        facilityUuids: [],
        unitTypes: [],
        amenityUuids: [],
        portfolio: 'demo',
        orderedDelivery: false,
        maxInFlight: 16,
      },
    ]);
  });

  it('filters by targetUrl and by eventType', async () => {
    const byUrl = await api.call('GET', `${BASE}/subscriptions?targetUrl=${encodeURIComponent('https://93.184.216.35/b')}`);
    expect((byUrl.body.items as { eventType: string }[]).map((item) => item.eventType)).toEqual(['rent-change']);
    const byType = await api.call('GET', `${BASE}/subscriptions?eventType=moved-out`);
    expect(byType.body.items).toHaveLength(1);
    expect(byType.body.items[0]).toMatchObject({ url: GOOD_URL, eventType: 'moved-out' });
    expectProblem(await api.call('GET', `${BASE}/subscriptions?eventType=move_out`), 400, ['eventType']);
  });

  it('shows another portfolio nothing, and 404 when it names this one', async () => {
    const own = await api.call('GET', `${BASE}/subscriptions`, { key: api.keys.other });
    expect(own.body).toEqual({ applicationId: 'app_other', items: [] });
    expectProblem(await api.call('GET', `${BASE}/subscriptions?portfolio=demo`, { key: api.keys.other }), 404);
  });
});

describe('operation 17: update subscription', () => {
  beforeEach(async () => void (await create()));

  it('updates the subscription named by targetUrl and answers all the spec fields', async () => {
    const amenity = id('amenity:climate');
    const reply = await api.call('PATCH', `${BASE}/subscriptions?targetUrl=${encodeURIComponent(GOOD_URL)}`, {
      body: { eventTypes: ['transfer', 'auction'], description: 'new', amenityUuids: [amenity] },
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      applicationId: 'app_demo',
      url: GOOD_URL,
      subscribedEventTypes: ['auction', 'transfer'],
      facilityUuids: [],
      amenityUuids: [amenity],
      unitTypes: [],
      databasePrefix: 'demo',
      orderedDelivery: false,
      maxInFlight: 16,
    });
    const byBody = await api.call('PATCH', `${BASE}/subscriptions`, { body: { targetUrl: GOOD_URL, description: 'from body' } });
    expect(byBody.status).toBe(200);
    const list = await api.call('GET', `${BASE}/subscriptions`);
    expect((list.body.items as { description: string }[]).map((item) => item.description)).toEqual(['from body', 'from body']);
  });

  it('changes one delivery setting and keeps the other, and keeps both when neither is given', async () => {
    const limited = await patch({ maxInFlight: 4 });
    expect(limited.status).toBe(200);
    expect(limited.body).toMatchObject({ orderedDelivery: false, maxInFlight: 4 });
    const ordered = await patch({ orderedDelivery: true });
    expect(ordered.body).toMatchObject({ orderedDelivery: true, maxInFlight: 4 });
    expect((await patch({ description: 'x' })).body).toMatchObject({ orderedDelivery: true, maxInFlight: 4 });
    expect(await storedSettings()).toEqual([{ ordered_delivery: true, max_in_flight: 4 }]);
    const list = await api.call('GET', `${BASE}/subscriptions`);
    expect(list.body.items).toEqual([
      expect.objectContaining({ description: 'x', orderedDelivery: true, maxInFlight: 4 }),
      expect.objectContaining({ description: 'x', orderedDelivery: true, maxInFlight: 4 }),
    ]);
    expect((await patch({ orderedDelivery: false })).body).toMatchObject({ orderedDelivery: false, maxInFlight: 4 });
    expect(await storedSettings()).toEqual([{ ordered_delivery: false, max_in_flight: 4 }]);
  });

  it.each(BAD_SETTINGS)('refuses %s %p with a 400 on it and changes nothing', async (field, value) => {
    const problem = expectProblem(await patch({ [field]: value }), 400, [field]);
    expect(new Set(problem.errors?.map((error) => error.field))).toEqual(new Set([field]));
    expect(await storedSettings()).toEqual([{ ordered_delivery: false, max_in_flight: 16 }]);
  });

  it('answers 404 for an unknown URL, 400 for bad input, 404 for another portfolio key', async () => {
    expectProblem(
      await api.call('PATCH', `${BASE}/subscriptions?targetUrl=${encodeURIComponent('https://93.184.216.34/other')}`, { body: { description: 'x' } }),
      404,
    );
    expectProblem(await api.call('PATCH', `${BASE}/subscriptions`, { body: { description: 'x' } }), 400, ['targetUrl']);
    expectProblem(await api.call('PATCH', `${BASE}/subscriptions`, { body: { targetUrl: null, description: 'x' } }), 400, ['targetUrl']);
    expectProblem(await api.call('PATCH', `${BASE}/subscriptions?targetUrl=${encodeURIComponent(GOOD_URL)}`, { body: { description: null } }), 400, [
      'description',
    ]);
    expectProblem(await api.call('PATCH', `${BASE}/subscriptions?targetUrl=${encodeURIComponent('http://x.example/a')}`, { body: {} }), 400, ['targetUrl']);
    expectProblem(await api.call('PATCH', `${BASE}/subscriptions?targetUrl=${encodeURIComponent(GOOD_URL)}`, { body: { eventTypes: ['moved_in'] } }), 400, [
      'eventTypes[0]',
    ]);
    expectProblem(
      await api.call('PATCH', `${BASE}/subscriptions?portfolio=demo&targetUrl=${encodeURIComponent(GOOD_URL)}`, {
        body: { description: 'x' },
        key: api.keys.other,
      }),
      404,
    );
    expectProblem(
      await api.call('PATCH', `${BASE}/subscriptions?targetUrl=${encodeURIComponent(GOOD_URL)}`, { body: { description: 'x' }, key: api.keys.other }),
      404,
    );
  });
});

describe('operation 18: unsubscribe', () => {
  it('removes some types (partial: unsubscribed and remaining listed), then all (endpoint removed)', async () => {
    const created = (await create({ eventTypes: ['moved-in', 'moved-out', 'transfer'] })).body;
    const partial = await api.call('DELETE', `${BASE}/subscriptions`, { body: { vendorName: 'acme-crm', portfolio: 'demo', eventTypes: ['moved-out'] } });
    expect(partial.status).toBe(200);
    expect(partial.body).toEqual({
      applicationId: 'app_demo',
      vendorName: 'acme-crm',
      endpointId: created.endpointId,
      url: GOOD_URL,
      unsubscribedEventTypes: ['moved-out'],
      remainingEventTypes: ['moved-in', 'transfer'],
    });
    const all = await api.call('DELETE', `${BASE}/subscriptions`, {
      body: { vendorName: 'acme-crm', portfolio: 'demo', eventTypes: ['moved-in', 'transfer'] },
    });
    expect(all.body).toEqual({ applicationId: 'app_demo', vendorName: 'acme-crm', endpointId: created.endpointId, url: GOOD_URL });
    expect(await endpointCount()).toBe(0);
  });

  it('answers 404 for an unknown vendor or another portfolio key, 400 for bad input', async () => {
    await create();
    expectProblem(await api.call('DELETE', `${BASE}/subscriptions`, { body: { vendorName: 'nobody', portfolio: 'demo', eventTypes: ['moved-in'] } }), 404);
    expectProblem(
      await api.call('DELETE', `${BASE}/subscriptions`, { body: { vendorName: 'acme-crm', portfolio: 'demo', eventTypes: ['moved-in'] }, key: api.keys.other }),
      404,
    );
    expectProblem(await api.call('DELETE', `${BASE}/subscriptions`, { body: { vendorName: 'acme-crm', portfolio: 'demo', eventTypes: ['gone'] } }), 400, [
      'eventTypes[0]',
    ]);
    expect(await endpointCount()).toBe(1);
  });
});

describe('operation 19: test event', () => {
  it('publishes a webhook-test-event command through the outbox', async () => {
    await create({ eventTypes: PUBLIC_EVENT_TYPES });
    const reply = await api.call('POST', `${BASE}/subscriptions/test`, { body: { eventType: 'rent-change', portfolio: 'demo' } });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ message: 'Test event sent.', endpoints: 1 });
    const rows = await query(
      api.db,
      sql<{ topic: string; envelope: { type: string; payload: unknown } }>(`SELECT topic, envelope FROM outbox WHERE type = 'webhook-test-event'`),
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ topic: 'storage.webhook-commands.v1', envelope: { payload: { portfolio: 'demo', eventType: 'rent-change' } } });
  });

  it('answers 404 when no endpoint subscribes, 400 for an unknown type, 404 for another portfolio key', async () => {
    await create({ eventTypes: ['moved-in'] });
    expectProblem(await api.call('POST', `${BASE}/subscriptions/test`, { body: { eventType: 'auction', portfolio: 'demo' } }), 404);
    expectProblem(await api.call('POST', `${BASE}/subscriptions/test`, { body: { eventType: 'moved_in', portfolio: 'demo' } }), 400, ['eventType']);
    expectProblem(await api.call('POST', `${BASE}/subscriptions/test`, { body: { eventType: 'moved-in', portfolio: 'demo' }, key: api.keys.other }), 404);
  });
});

describe('operation 20: dashboard link', () => {
  it('links to the portal with a token for the portfolio and the key, valid 7 days', async () => {
    const reply = await api.call('GET', `${BASE}/dashboard-link`);
    expect(reply.status).toBe(200);
    const url = new URL(reply.body.url);
    expect(`${url.origin}${url.pathname}`).toBe('http://localhost:3001/portal/login');
    const check = checkPortalToken(url.searchParams.get('token')!, new Date(), DEVELOPMENT_PORTAL_TOKEN_SECRET);
    const [key] = await query(api.db, sql<{ uuid: string }>('SELECT uuid FROM api_keys WHERE key_hash = $1'), [hashApiKey(api.keys.write)]);
    expect(check).toEqual({ ok: true, grant: { portfolio: 'demo', expiresAt: expect.any(Date), apiKeyUuid: key.uuid } });
  });

  it('answers 404 for a portfolio the key may not reach and 401 without a key', async () => {
    expectProblem(await api.call('GET', `${BASE}/dashboard-link?portfolio=demo`, { key: api.keys.other }), 404);
    expectProblem(await api.call('GET', `${BASE}/dashboard-link`, { key: null }), 401);
  });
});

describe('API keys on the webhook routes', () => {
  it('a read-only key may list but not create (403), nothing stored', async () => {
    expect((await api.call('GET', `${BASE}/subscriptions`, { key: api.keys.read })).status).toBe(200);
    expectProblem(await create({}, api.keys.read), 403);
    expectProblem(await create({ portfolio: 'demo' }, api.keys.other), 404);
    expect(await endpointCount()).toBe(0);
  });
});
