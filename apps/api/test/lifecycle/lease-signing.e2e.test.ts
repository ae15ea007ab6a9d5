import { id } from '../support/test-api';
import { startLifecycleApi, type LifecycleApi } from '../support/lifecycle-api';
import { leadWithLease, outboxLifecycleEvents, rentalOf, signingPath } from '../support/lifecycle-flow';
import { query, sql } from '@storage/persistence';
import { setUnitStatus } from '@storage/unit-occupancy';

let api: LifecycleApi;
beforeAll(async () => {
  api = await startLifecycleApi();
});
afterAll(async () => api.close());

const GROUP = id('unit-group:downtown:5x10:1');
const AGREE = { agree: 'yes' };

const expectPage = (reply: { status: number; headers: Record<string, unknown>; text: string }, status: number, text: string): void => {
  expect(reply.status).toBe(status);
  expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(reply.headers['cache-control']).toBe('no-store');
  expect(reply.text).toContain(text);
};

describe('lease page', () => {
  it('shows the terms, signs once, and answers a second signing without a second rental or event', async () => {
    const lead = await leadWithLease(api, GROUP, { firstName: 'Ada', lastName: 'Twice' });
    const page = await api.call('GET', signingPath(lead.link));
    expectPage(page, 200, 'Sign the lease');
    expect(page.text).toContain('Downtown Self Storage, 120 Hudson St, New York, NY 10013');

    expectPage(await api.postForm(signingPath(lead.link), AGREE), 200, 'Thank you, your lease is signed.');
    expectPage(await api.postForm(signingPath(lead.link), AGREE), 200, 'This lease is already signed; nothing was changed.');
    expectPage(await api.call('GET', signingPath(lead.link)), 200, 'This lease is already signed');

    const rental = (await rentalOf(api.db, lead.leadUuid))!;
    expect(await query(api.db, sql('SELECT uuid FROM rental_records WHERE lead_uuid = $1'), [lead.leadUuid])).toEqual([{ uuid: rental }]);
    expect((await outboxLifecycleEvents(api.db, [rental])).map((event) => event.type)).toEqual(['moved-in']);
    const [state] = await query(
      api.db,
      sql<{ lead: string; lease: string; unit: string; code: string }>(`SELECT l.status AS lead, s.status AS lease, u.status AS unit, g.code
         FROM leads l JOIN leases s ON s.lead_uuid = l.uuid JOIN rental_records r ON r.uuid = l.converted_rental_record_uuid
         JOIN units u ON u.uuid = r.unit_uuid JOIN gate_codes g ON g.rental_record_uuid = r.uuid WHERE l.uuid = $1`),
      [lead.leadUuid],
    );
    expect(state).toEqual({ lead: 'CONVERTED', lease: 'SIGNED', unit: 'occupied', code: expect.stringMatching(/^\d{6}$/) });
    const gate = await api.call('GET', `/api/demo/portfolios/v1/facilities/${id('facility:downtown')}/rentalRecords/${rental}/gateAccessCode`);
    expect(gate.body).toBe(state.code);
  });

  it('refuses a signing posted from another site with 403 problem+json, and signs one from its own origin', async () => {
    const lead = await leadWithLease(api, GROUP, { firstName: 'Gus', lastName: 'Forged' });
    const path = signingPath(lead.link);
    const crossSite: Record<string, string>[] = [
      { origin: 'https://attacker.example' },
      { origin: 'null' },
      // The public origin's host on another scheme or port is another origin.
      { origin: api.baseUrl.replace('http:', 'https:') },
      { 'sec-fetch-site': 'cross-site' },
      { origin: api.baseUrl, 'sec-fetch-site': 'cross-site' },
    ];
    for (const headers of crossSite) {
      const refused = await api.postForm(path, AGREE, headers);
      expect({ headers, status: refused.status }).toEqual({ headers, status: 403 });
      expect(String(refused.headers['content-type'])).toMatch(/^application\/problem\+json/);
      expect(refused.body).toMatchObject({ status: 403, detail: expect.stringContaining('another site') });
    }
    expect(await rentalOf(api.db, lead.leadUuid)).toBeNull();

    // The page's own form: from the public base URL, or from the host the request came to (a proxy's own name).
    expectPage(
      await api.postForm(path, {}, { origin: 'http://lease.internal:8080', host: 'lease.internal:8080', 'sec-fetch-site': 'same-origin' }),
      400,
      'Please tick',
    );
    expectPage(await api.postForm(path, AGREE, { origin: api.baseUrl, 'sec-fetch-site': 'same-origin' }), 200, 'Thank you, your lease is signed.');
  });

  it('refuses to sign without agreement, showing the terms again and changing nothing', async () => {
    const lead = await leadWithLease(api, GROUP, { firstName: 'Ben', lastName: 'Unsure' });
    expectPage(await api.postForm(signingPath(lead.link), {}), 400, 'Please tick the box to agree');
    expect(await rentalOf(api.db, lead.leadUuid)).toBeNull();
  });

  it('answers unknown links with 404 and expired leases with 410 pages', async () => {
    expectPage(await api.call('GET', '/leases/sign/no-such-token'), 404, 'This signing link is not valid.');
    expectPage(await api.postForm('/leases/sign/no-such-token', AGREE), 404, 'This signing link is not valid.');
    expectPage(await api.call('GET', '/leases/sign/not%20a%20token'), 404, 'Lease not found');

    const lead = await leadWithLease(api, GROUP, { firstName: 'Cleo', lastName: 'Late' });
    // Sent 31 days ago: time no operation moves, so the test ages its own row.
    await query(api.db, sql(`UPDATE leases SET sent_at = now() - interval '31 days' WHERE lead_uuid = $1`), [lead.leadUuid]);
    expectPage(await api.call('GET', signingPath(lead.link)), 410, 'This lease can no longer be signed.');
    expectPage(await api.postForm(signingPath(lead.link), AGREE), 410, 'Lease expired');
    expect(await rentalOf(api.db, lead.leadUuid)).toBeNull();
  });

  it('gives the last vacant unit to one of two leads signing at once and refuses the other clearly', async () => {
    const group = id('unit-group:downtown:10x20:1');
    const first = await leadWithLease(api, group, { firstName: 'Dora', lastName: 'Race' });
    const second = await leadWithLease(api, group, { firstName: 'Eli', lastName: 'Race' });
    // Every vacant unit but the last is let, as their owner lets units.
    const vacantUnits = await query(
      api.db,
      sql<{ uuid: string }>(`SELECT uuid FROM units WHERE unit_group_uuid = $1 AND status = 'vacant' ORDER BY name DESC`),
      [group],
    );
    await api.db.transaction(async (manager) => {
      for (const { uuid } of vacantUnits.slice(1)) await setUnitStatus(manager, uuid, 'occupied');
    });

    const replies = await Promise.all([api.postForm(signingPath(first.link), AGREE), api.postForm(signingPath(second.link), AGREE)]);
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 409]);
    const refused = replies.find((reply) => reply.status === 409)!;
    expectPage(refused, 409, 'the last unit of this size was just rented. Nothing was signed');

    const rentals = [await rentalOf(api.db, first.leadUuid), await rentalOf(api.db, second.leadUuid)].filter((rental) => rental !== null);
    expect(rentals).toHaveLength(1);
    expect((await outboxLifecycleEvents(api.db, rentals)).map((event) => event.type)).toEqual(['moved-in']);
    const [{ vacant }] = await query(api.db, sql(`SELECT count(*)::int AS vacant FROM units WHERE unit_group_uuid = $1 AND status = 'vacant'`), [group]);
    expect(vacant).toBe(0);
    const leases = await query(api.db, sql<{ status: string }>('SELECT status FROM leases WHERE lead_uuid = ANY($1) ORDER BY status'), [
      [first.leadUuid, second.leadUuid],
    ]);
    expect(leases.map((lease) => lease.status)).toEqual(['SENT', 'SIGNED']);
  });
});
