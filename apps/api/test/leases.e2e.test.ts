import { createHash } from 'node:crypto';
import { expectProblem, id, list, PUBLIC_BASE_URL, sentSigningLink, startTestApi, type TestApi } from './support/test-api';
import { query, sql } from '@storage/persistence';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api.close());

const downtown = id('facility:downtown');
const base = '/api/demo/portfolios/v1';
const sendLease = (lead: string, query = '') => `${base}/facilities/${downtown}/leads/${lead}/sendLease${query}`;
const LINK = new RegExp(`^${PUBLIC_BASE_URL}/leases/sign/[\\w-]{43}$`);
const hashOf = (link: string): string => createHash('sha256').update(link.split('/').at(-1)!).digest('hex');

describe('operation 13: send lease', () => {
  it('creates the lease, sends it by email with the signing link, and lists the message with the link hidden', async () => {
    const lead = id('lead:1');
    const reply = await api.call('POST', sendLease(lead));
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(reply.body).toBe('Lease sent by email.');

    const leases = await query(
      api.db,
      sql<{ status: string; signing_token_hash: string; unit_group_uuid: string; rent_in_pennies: number; sent_at: Date }>(
        `SELECT status, signing_token_hash, unit_group_uuid, rent_in_pennies, sent_at FROM leases WHERE lead_uuid = $1`,
      ),
      [lead],
    );
    expect(leases).toHaveLength(1);
    expect(leases[0]).toMatchObject({ status: 'SENT', unit_group_uuid: id('unit-group:downtown:10x10:1'), rent_in_pennies: 12028 });
    const link = sentSigningLink(api.sentNotifications(), 'harper.lee@example.com');
    expect(link).toMatch(LINK);
    expect(leases[0].signing_token_hash).toBe(hashOf(link));
    const [leadRow] = await query(api.db, sql<{ status: string }>('SELECT status FROM leads WHERE uuid = $1'), [lead]);
    expect(leadRow.status).toBe('LEASE_SENT');

    const notifications = await api.call('GET', `${base}/notifications?leadUuid=${lead}`);
    expect(notifications.status).toBe(200);
    expect(notifications.body).toEqual([
      {
        notificationUuid: expect.any(String),
        leadUuid: lead,
        channel: 'email',
        recipient: 'harper.lee@example.com',
        subject: 'Your lease at Downtown Self Storage',
        body: expect.stringContaining('ready to sign: [hidden]'),
        createdAt: expect.any(String),
      },
    ]);
  });

  it('sends the signable lease again with a new link (by sms): the link sent before no longer opens it', async () => {
    const lead = id('lead:3');
    await api.call('POST', sendLease(lead));
    const first = sentSigningLink(api.sentNotifications(), 'maya.chen@example.com');
    const again = await api.call('POST', sendLease(lead, '?contactMethod=sms'));
    expect(again.body).toBe('Lease sent by sms.');
    const link = sentSigningLink(api.sentNotifications(), '6465552003');
    expect(link).toMatch(LINK);
    expect(link).not.toBe(first);
    const leases = await query(api.db, sql<{ signing_token_hash: string }>(`SELECT signing_token_hash FROM leases WHERE lead_uuid = $1`), [lead]);
    expect(leases).toEqual([{ signing_token_hash: hashOf(link) }]);
    expect((await api.call('GET', new URL(link).pathname, { key: null })).status).toBe(200);
    expect((await api.call('GET', new URL(first).pathname, { key: null })).status).toBe(404);
    const sent = (await api.call('GET', `${base}/notifications?leadUuid=${lead}`)).body;
    expect(list<{ channel: string }>(sent).map((n) => n.channel)).toEqual(['sms', 'email']);
    expect(sent[0]).toMatchObject({ recipient: '6465552003' });
  });

  it('answers 200 when the lease is already signed, sending nothing', async () => {
    const reply = await api.call('POST', sendLease(id('lead:4')));
    expect(reply.status).toBe(200);
    expect(reply.body).toBe('Lease already signed.');
    expect((await api.call('GET', `${base}/notifications?leadUuid=${id('lead:4')}`)).body).toEqual([]);
  });

  it('refuses a lead that is not ready (no unit group) with 409 naming what is missing', async () => {
    const problem = expectProblem(await api.call('POST', sendLease(id('lead:2'))), 409);
    expect(problem.errors).toEqual([{ field: 'unitGroupUuid', message: 'the lead has chosen no unit group' }]);
    expect(await query(api.db, sql('SELECT 1 FROM leases WHERE lead_uuid = $1'), [id('lead:2')])).toEqual([]);
  });

  it('refuses a full unit group with 409', async () => {
    const created = await api.call('POST', '/shopping/demo/v1/leads', {
      body: { facilityUuid: downtown, unitGroupUuid: id('unit-group:downtown:10x10:2'), firstName: 'Fay', lastName: 'Full', email: 'fay.full@example.com' },
    });
    expect(created.status).toBe(200);
    const problem = expectProblem(await api.call('POST', sendLease(created.body.leadUuid)), 409);
    expect(problem.errors).toEqual([{ field: 'unitGroupUuid', message: 'no vacant unit' }]);
  });

  it('refuses an unknown contact method, malformed UUIDs and leads of another facility', async () => {
    expectProblem(await api.call('POST', sendLease(id('lead:1'), '?contactMethod=fax')), 400, ['contactMethod']);
    expectProblem(await api.call('POST', sendLease('nope')), 400, ['leadUuid']);
    expectProblem(await api.call('POST', `${base}/facilities/${id('facility:lakeside')}/leads/${id('lead:1')}/sendLease`), 404);
    expectProblem(await api.call('POST', sendLease(id('lead:none'))), 404);
  });

  it('refuses malformed notification filters', async () => {
    expectProblem(await api.call('GET', `${base}/notifications?leadUuid=x`), 400, ['leadUuid']);
  });
});
