import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import type { DataSource } from 'typeorm';
import { createEnvelope, PUBLIC_EVENT_TYPES, type EventEnvelope } from '@storage/domain';
import { OutboxPublisher } from '@storage/messaging';
import { createDataSource, query, sql } from '@storage/persistence';
import { createTestDatabase, eventually, launchBrowser, type TestDatabase } from '@storage/testing';
import { issuePortalToken } from '@storage/webhooks';
import { startDispatcher, type DispatcherProcess } from './support/dispatcher-process';
import { removeAllEndpoints, seedEndpoint } from './support/endpoints';
import { sampleEnvelope } from './support/events';
import { checkPortalPage, clickThrough, VIEWPORTS } from './support/portal-browser';
import { makeCertificate, TestReceiver, type TestCertificate } from './support/receiver';
import { testKeyring } from './support/secret-keys';
import { verify } from './support/verify';

const PORTAL_SECRET = 'e2e-portal-secret-at-least-32-characters-long';
/** The write key portal links are issued to (the portal checks it on every request). */
const PORTAL_KEY = randomUUID();

/** The embedded transport: events reach the dispatcher through the outbox, as the api and scheduler write them. */
describe('webhook-dispatcher end to end (embedded transport)', () => {
  let certificate: TestCertificate;
  let receiver: TestReceiver;
  let database: TestDatabase;
  let db: DataSource;
  let dispatcher: DispatcherProcess;
  const outbox = new OutboxPublisher('test-producer');
  const publish = (envelope: EventEnvelope) => db.transaction((manager) => outbox.publish(manager, envelope));
  const requestsTo = (path: string) => receiver.requests.filter((r) => r.path === path);

  beforeAll(async () => {
    certificate = await makeCertificate();
    receiver = await new TestReceiver(certificate).start();
    database = await createTestDatabase();
    db = await createDataSource({ url: database.url, applicationName: 'dispatcher-e2e' }).initialize();
    await query(
      db,
      sql(`INSERT INTO api_keys (uuid, key_hash, key_prefix, scope) VALUES ($1, $2, 'sk_e2e', 'write')
       -- owner-bypass: the portal's api key, a row of apps/api, which the dispatcher cannot depend on`),
      [PORTAL_KEY, randomUUID()],
    );
    dispatcher = await startDispatcher({
      DATABASE_URL: database.url,
      WEBHOOK_ALLOWED_SUBNETS: '127.0.0.1/32',
      NODE_EXTRA_CA_CERTS: certificate.certFile,
      PORTAL_TOKEN_SECRET: PORTAL_SECRET,
      LOG_LEVEL: 'info', // request lines too, to check the login token stays out of them
    });
  }, 60_000);
  afterAll(async () => {
    await dispatcher?.stop();
    await db?.destroy();
    await database?.drop();
    await receiver.stop();
    certificate.cleanup();
  });
  beforeEach(async () => {
    receiver.requests.length = 0;
    receiver.respond = (_req, res) => {
      res.statusCode = 204;
      res.end();
    };
    await removeAllEndpoints(db);
  });

  it('delivers every event type, each verified by standardwebhooks', async () => {
    const { secret } = await seedEndpoint(db, { url: receiver.url('/all') });
    const envelopes = PUBLIC_EVENT_TYPES.map((type) => sampleEnvelope(type));
    for (const envelope of envelopes) await publish(envelope);
    await eventually(() => expect(requestsTo('/all')).toHaveLength(7), { timeoutMs: 15_000 });
    const bodies = requestsTo('/all').map((r) => verify(secret, r));
    expect(bodies.map((body) => body.test)).toEqual(Array(7).fill(false));
    const received = bodies.map((body) => body.data[0]);
    expect(received.map((p) => p.event).sort()).toEqual([...PUBLIC_EVENT_TYPES].sort());
    expect(new Set(received.map((p) => p.eventId))).toEqual(new Set(envelopes.map((e) => e.eventId)));
  });

  it('filters by facility, unit type and amenity: each endpoint receives exactly the matching events', async () => {
    const [facility, unitType, amenity, otherAmenity] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    await seedEndpoint(db, { url: receiver.url('/facility'), facilityUuids: [facility] });
    await seedEndpoint(db, { url: receiver.url('/unit-type'), unitTypes: [unitType] });
    await seedEndpoint(db, { url: receiver.url('/amenity'), amenityUuids: [amenity] });
    await seedEndpoint(db, { url: receiver.url('/combined'), facilityUuids: [facility], unitTypes: [unitType] });
    await seedEndpoint(db, { url: receiver.url('/moved-out-only'), eventTypes: ['moved-out'] });
    await seedEndpoint(db, { url: receiver.url('/other-portfolio'), portfolio: 'other' });
    const events = {
      atFacility: sampleEnvelope('moved-in', { facilityUuid: facility }),
      ofUnitType: sampleEnvelope('rent-change', { unitType }),
      withAmenity: sampleEnvelope('transfer', { amenityUuids: [otherAmenity, amenity] }),
      both: sampleEnvelope('moved-out', { facilityUuid: facility, unitType }),
      neither: sampleEnvelope('auction', { amenityUuids: [otherAmenity] }),
    };
    for (const envelope of Object.values(events)) await publish(envelope);
    const idsAt = (path: string): string[] =>
      requestsTo(path)
        .map((r) => (JSON.parse(r.body) as { data: { eventId: string }[] }).data[0].eventId)
        .sort();
    const expected: Record<string, string[]> = {
      '/facility': [events.atFacility.eventId, events.both.eventId],
      '/unit-type': [events.ofUnitType.eventId, events.both.eventId],
      '/amenity': [events.withAmenity.eventId],
      '/combined': [events.both.eventId],
      '/moved-out-only': [events.both.eventId],
      '/other-portfolio': [],
    };
    await eventually(() => expect(receiver.requests).toHaveLength(7), { timeoutMs: 15_000 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    for (const [path, ids] of Object.entries(expected)) expect({ path, ids: idsAt(path) }).toEqual({ path, ids: [...ids].sort() });
  });

  it('sends a test event (operation 19 command) to the subscribed endpoints regardless of filters', async () => {
    const { secret } = await seedEndpoint(db, { url: receiver.url('/test'), facilityUuids: [randomUUID()], eventTypes: ['auction'] });
    await seedEndpoint(db, { url: receiver.url('/not-auction'), eventTypes: ['moved-in'] });
    await publish(
      createEnvelope({ type: 'webhook-test-event', payload: { portfolio: 'acme', eventType: 'auction' }, occurredAt: new Date(), portfolio: 'acme' }),
    );
    await eventually(() => expect(requestsTo('/test')).toHaveLength(1), { timeoutMs: 15_000 });
    const body = verify(secret, requestsTo('/test')[0]);
    expect(body.data[0]).toMatchObject({ event: 'auction', tenantUuid: '00000000-0000-0000-0000-000000000000' });
    expect(body.test).toBe(true);
    expect(requestsTo('/not-auction')).toHaveLength(0);
  });

  describe('portal in headless Chromium', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchBrowser();
    });
    afterAll(async () => browser?.close());

    it.each(VIEWPORTS)(
      'at $width px: pages past 100 messages, finds one by each kind of id, shows its payload, sends an example, adds and deletes an endpoint; accessible, no sideways scroll',
      async ({ name, width, height }) => {
        const { id } = await seedEndpoint(db, { url: receiver.url(`/tour-${name}`) });
        const rental = randomUUID();
        const event = sampleEnvelope('moved-in', { rentalRecordUuid: rental });
        await publish(event);
        await eventually(() => expect(requestsTo(`/tour-${name}`)).toHaveLength(1), { timeoutMs: 15_000 });
        const hookId = requestsTo(`/tour-${name}`)[0].headers['hook-id'] as string;
        // 120 older messages already delivered: the log has more than a page of 100.
        await query(
          db,
          sql(`INSERT INTO webhook_messages (id, endpoint_id, portfolio, event_id, event_type, body, status, attempts, created_at)
             SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), $1, 'acme', 'older-' || n, 'rent-change', '{"data":[],"test":false}',
                    'succeeded', 1, now() - interval '1 day' - n * interval '1 minute'
               FROM generate_series(1, 120) AS n`),
          [id],
        );

        const page = await browser.newPage({ viewport: { width, height } });
        await page.goto(`${dispatcher.baseUrl}/portal/login?token=${issuePortalToken('acme', new Date(), PORTAL_SECRET, PORTAL_KEY).token}`);
        await checkPortalPage(page, `endpoints-${name}`);
        await page.goto(`${dispatcher.baseUrl}/portal/endpoints/${id}`);
        await checkPortalPage(page, `endpoint-${name}`);
        expect(await page.locator('tr.message').count()).toBe(100);
        await clickThrough(page, '#older');
        expect(await page.locator('tr.message').count()).toBe(21);
        expect(await page.locator('#older').count()).toBe(0);
        await clickThrough(page, '#newest');
        expect(await page.locator('tr.message').first().getAttribute('data-id')).toBe(hookId);

        for (const search of [hookId, event.eventId, rental]) {
          await page.fill('input[name=search]', search);
          await clickThrough(page, '#filter button');
          expect(await page.locator('tr.message').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-id')))).toEqual([hookId]);
        }
        await clickThrough(page, `a[href="/portal/messages/${hookId}"]`);
        expect(JSON.parse(await page.locator('#payload').innerText())).toEqual({ data: [event.payload], test: false });
        expect(await page.locator('tr.attempt').innerText()).toContain('204');
        await checkPortalPage(page, `message-${name}`);
        // Keyboard: the first Tab offers to skip the navigation, and every control of the page is reached by Tab.
        const focused: string[] = [];
        for (let i = 0; i < 12; i += 1) {
          await page.keyboard.press('Tab');
          focused.push(await page.evaluate(() => document.activeElement?.id || document.activeElement?.textContent?.trim() || ''));
        }
        expect(focused[0]).toBe('Skip to content');
        expect(focused).toEqual(expect.arrayContaining(['Endpoints', 'Event catalog', 'resend', 'copy-payload', 'payload']));

        await page.goto(`${dispatcher.baseUrl}/portal`);
        await page.fill('#search-all input[name=search]', rental);
        await clickThrough(page, '#search-all button');
        expect(await page.locator('tr.found').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-id')))).toEqual([hookId]);
        await checkPortalPage(page, `search-${name}`);

        await page.goto(`${dispatcher.baseUrl}/portal/catalog`);
        await checkPortalPage(page, `catalog-${name}`);
        await page.locator('#auction form.send-example select').selectOption(id);
        await clickThrough(page, '#auction form.send-example button');
        expect(await page.locator('#notice').innerText()).toContain('Example auction queued');
        await eventually(() => expect(requestsTo(`/tour-${name}`)).toHaveLength(2), { timeoutMs: 15_000 });
        expect(JSON.parse(requestsTo(`/tour-${name}`)[1].body)).toMatchObject({ data: [{ event: 'auction' }], test: true });

        // Add an endpoint, then delete it after the confirmation.
        await page.goto(`${dispatcher.baseUrl}/portal`);
        await clickThrough(page, '#add-endpoint');
        await page.fill('input[name=vendorName]', `added-${name}`);
        await page.fill('input[name=url]', receiver.url(`/added-${name}`));
        await page.check('input[name=eventTypes][value=auction]');
        await checkPortalPage(page, `add-endpoint-${name}`);
        await clickThrough(page, '#save-endpoint');
        expect(await page.locator('#notice').innerText()).toContain('Endpoint added');
        expect(await page.locator('#secret').innerText()).toMatch(/^whsec_/);
        await clickThrough(page, '#delete-endpoint');
        await checkPortalPage(page, `delete-endpoint-${name}`);
        await clickThrough(page, '#confirm-delete');
        expect(await page.locator('#notice').innerText()).toContain(`Endpoint ${receiver.url(`/added-${name}`)} deleted.`);
        expect(await page.locator('#endpoints a', { hasText: `/added-${name}` }).count()).toBe(0);

        const missing = await page.goto(`${dispatcher.baseUrl}/portal/`);
        expect(missing!.status()).toBe(404);
        await checkPortalPage(page, `not-found-${name}`);
        const stranger = await browser.newPage({ viewport: { width, height } });
        expect((await stranger.goto(`${dispatcher.baseUrl}/portal/endpoints/${id}`))!.status()).toBe(401);
        expect(await stranger.locator('nav').count()).toBe(0);
        await checkPortalPage(stranger, `denied-${name}`);
      },
      120_000,
    );

    it('enables an endpoint the receiver had gone from and recovers its failed messages, under their first hook-id', async () => {
      let gone = true;
      receiver.respond = (_request, res) => {
        res.statusCode = gone ? 410 : 204;
        res.end();
      };
      const { id, secret } = await seedEndpoint(db, { url: receiver.url('/recovered') });
      const since = new Date(Date.now() - 60_000);
      const lost = sampleEnvelope('moved-out');
      await publish(lost);
      await eventually(
        async () => {
          const [endpoint] = await query(db, sql<{ disabled_reason: string | null }>('SELECT disabled_reason FROM webhook_endpoints WHERE id = $1'), [id]);
          expect(endpoint?.disabled_reason).toContain('410');
        },
        { timeoutMs: 15_000 },
      );

      gone = false;
      const page = await browser.newPage();
      await page.goto(`${dispatcher.baseUrl}/portal/login?token=${issuePortalToken('acme', new Date(), PORTAL_SECRET, PORTAL_KEY).token}`);
      await page.goto(`${dispatcher.baseUrl}/portal/endpoints/${id}`);
      expect(await page.locator('tr.message', { hasText: 'moved-out' }).locator('td').nth(1).innerText()).toContain('failed');
      await clickThrough(page, 'text=Enable again');
      expect(await page.locator('#notice').innerText()).toContain('Endpoint enabled');
      await page.fill('input[name=since]', since.toISOString().slice(0, 16));
      await clickThrough(page, '#recover');
      expect(await page.locator('#notice').innerText()).toContain('1 failed messages queued again');

      await eventually(() => expect(requestsTo('/recovered')).toHaveLength(2), { timeoutMs: 15_000 });
      const [first, recovered] = requestsTo('/recovered');
      expect(recovered?.headers['hook-id']).toBe(first?.headers['hook-id']);
      expect(verify(secret, recovered).data[0]?.eventId).toBe(lost.eventId);
    }, 60_000);

    it('shows a delivered and a failed message with their attempts, resends one, and an expired link shows no data', async () => {
      let failing = true;
      receiver.respond = (request, res) => {
        const event = (JSON.parse(request.body) as { data: { event: string }[] }).data[0].event;
        res.statusCode = failing && event === 'rent-change' ? 500 : 200;
        res.end(res.statusCode === 500 ? 'receiver exploded' : 'thanks');
      };
      const { id, secret } = await seedEndpoint(db, { url: receiver.url('/portal-endpoint') });
      const delivered = sampleEnvelope('moved-in');
      const failed = sampleEnvelope('rent-change');
      await publish(delivered);
      await publish(failed);
      await eventually(
        async () => {
          const rows = await query(db, sql<{ status: string; attempts: number }>('SELECT status, attempts FROM webhook_messages ORDER BY event_type'));
          expect(rows.map((r) => r.attempts)).toEqual([1, 1]);
        },
        { timeoutMs: 15_000 },
      );

      const { token } = issuePortalToken('acme', new Date(), PORTAL_SECRET, PORTAL_KEY);
      const page = await browser.newPage();
      await page.goto(`${dispatcher.baseUrl}/portal/login?token=${token}`);
      expect(page.url()).toBe(`${dispatcher.baseUrl}/portal`);
      await eventually(() => expect(dispatcher.output()).toContain('/portal/login?token=[redacted]'));
      expect(dispatcher.output()).not.toContain(token);
      await clickThrough(page, `a[href="/portal/endpoints/${id}"]`);
      const messages = page.locator('tr.message');
      await expect(messages.count()).resolves.toBe(2);
      const deliveredRow = page.locator('tr.message', { hasText: 'moved-in' });
      const failedRow = page.locator('tr.message', { hasText: 'rent-change' });
      expect(await deliveredRow.locator('td').nth(1).innerText()).toContain('succeeded');
      expect(await deliveredRow.locator('td.attempts').innerText()).toBe('1, last: 200');
      expect(await failedRow.locator('td').nth(1).innerText()).toContain('pending');
      expect(await failedRow.locator('td.attempts').innerText()).toBe('1, last: 500');
      expect(await page.locator('#day-rate').innerText()).toBe('50.0 %');
      // Charts with their axes' units: success rate (%), attempt duration percentiles (ms), messages and attempts per hour, attempts per day.
      expect(await page.locator('svg.chart').count()).toBe(5);
      expect(await page.locator('svg.chart').evaluateAll((charts) => charts.map((chart) => chart.querySelector('text[transform]')?.textContent))).toEqual([
        '%',
        'ms',
        'messages',
        'attempts',
        'attempts',
      ]);
      expect(await page.locator('svg.chart').nth(0).locator('circle title').allTextContents()).toEqual([expect.stringMatching(/attempts succeeded 50 %$/)]);
      expect(await page.locator('svg.chart').nth(1).locator('circle').count()).toBe(3);
      expect(await page.locator('svg.chart').nth(2).locator('title').allTextContents()).toContainEqual(expect.stringMatching(/: 2 messages created$/));

      // Filter the log by status.
      await page.selectOption('select[name=status]', 'succeeded');
      await clickThrough(page, '#filter button');
      await expect(page.locator('tr.message').count()).resolves.toBe(1);

      // The failed one's page: the payload as sent, its answer; resend it now that the receiver works.
      failing = false;
      await page.goto(`${dispatcher.baseUrl}/portal/endpoints/${id}?eventType=rent-change`);
      await clickThrough(page, 'tr.message a[href^="/portal/messages/"]');
      expect(JSON.parse(await page.locator('#payload').innerText())).toMatchObject({ data: [{ eventId: failed.eventId }], test: false });
      expect(await page.locator('tr.attempt').innerText()).toMatch(/500[\s\S]*receiver exploded/);
      await clickThrough(page, '#resend');
      expect(await page.locator('#notice').innerText()).toContain('queued to be sent again');
      await eventually(
        async () => {
          await page.reload();
          expect(await page.locator('#status').innerText()).toContain('succeeded');
        },
        { timeoutMs: 15_000, intervalMs: 300 },
      );
      expect(await page.locator('tr.attempt').count()).toBe(2);
      const hookIds = receiver.requests.filter((r) => JSON.parse(r.body).data[0].event === 'rent-change').map((r) => r.headers['hook-id']);
      expect(new Set(hookIds).size).toBe(1);
      expect(await page.locator('#hook-id').innerText()).toBe(hookIds[0]);
      await page.goto(`${dispatcher.baseUrl}/portal/endpoints/${id}`);

      // Reveal the secret (opened from its sealed form) and rotate it: the new one is stored sealed too.
      await clickThrough(page, '#reveal');
      expect(await page.locator('#secret').innerText()).toBe(secret);
      await clickThrough(page, '#rotate');
      const rotated = await page.locator('#secret').innerText();
      expect(rotated).toMatch(/^whsec_/);
      expect(rotated).not.toBe(secret);
      const [stored] = await query(
        db,
        sql<{ secret: string; previous_secret: string }>('SELECT secret, previous_secret FROM webhook_endpoints WHERE id = $1'),
        [id],
      );
      expect(stored.secret).toMatch(/^v1:test-1:/);
      expect(stored.secret).not.toContain(rotated.slice('whsec_'.length));
      expect(testKeyring.open(stored.secret, id)).toBe(rotated);
      expect(testKeyring.open(stored.previous_secret, id)).toBe(secret);
      expect(dispatcher.output()).not.toContain(rotated);

      // A secret sealed with a key this dispatcher does not hold: the page says so instead of failing.
      await query(
        db,
        sql(
          `UPDATE webhook_endpoints SET secret = 'v1:retired-key:AAAAAAAAAAAAAAAA:AAAA' WHERE id = $1 -- owner-bypass: a secret sealed with a key no keyring holds, a corruption no owner produces`,
        ),
        [id],
      );
      const unreadable = await page.goto(`${dispatcher.baseUrl}/portal/endpoints/${id}?reveal=1`);
      expect(unreadable!.status()).toBe(200);
      expect(await page.locator('#notice').innerText()).toContain('sealed with key "retired-key", which is not in the keyring');
      expect(await page.locator('#secret').count()).toBe(0);

      // An expired link and a forged one: a clear page, none of the data.
      const expired = issuePortalToken('acme', new Date(Date.now() - 8 * 86_400_000), PORTAL_SECRET, PORTAL_KEY).token;
      const fresh = await browser.newPage();
      for (const [link, text] of [
        [`${dispatcher.baseUrl}/portal/login?token=${expired}`, 'expired'],
        [
          `${dispatcher.baseUrl}/portal/login?token=${issuePortalToken('acme', new Date(), 'some-other-secret-of-32-characters!!', PORTAL_KEY).token}`,
          'not valid',
        ],
        [`${dispatcher.baseUrl}/portal/endpoints/${id}`, 'not valid'],
      ] as const) {
        const response = await fresh.goto(link);
        expect(response!.status()).toBe(401);
        expect(await fresh.locator('#denied').innerText()).toContain(text);
        const content = await fresh.content();
        expect(content).not.toContain('/portal-endpoint');
        expect(content).not.toContain('whsec_');
      }
    }, 60_000);
  });
});
