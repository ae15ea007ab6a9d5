import { query, sql } from '@storage/persistence';
import { eventually, sessionsWaitingForLocks } from '@storage/testing';
import { expectProblem, id, startTestApi, UUID, type Reply, type TestApi } from './support/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api.close());

const LEADS = '/shopping/demo/v1/leads';
const LEADS_OF = sql<{ leads: number; persons: number }, [email: string]>(
  `SELECT count(*)::int AS leads, count(DISTINCT p.uuid)::int AS persons FROM leads l JOIN persons p ON p.uuid = l.person_uuid WHERE p.email = $1`,
);

const lead = (email: string) => ({
  facilityUuid: id('facility:downtown'),
  unitGroupUuid: id('unit-group:downtown:5x5:1'),
  firstName: 'Rosa',
  lastName: 'Diaz',
  email,
  phone: '(646) 555-0101',
  leadSourceUuid: id('lead-source:Website'),
});

const send = (body: unknown, key: string): Promise<Reply> => api.call('POST', LEADS, { body, headers: { 'Idempotency-Key': key } });

async function leadsOf(email: string): Promise<{ leads: number; persons: number }> {
  const [row] = await query(api.db, LEADS_OF, [email]);
  return row;
}

/*
 * A marketing site or a call centre that created a lead and got no answer (a time-out, a dropped connection) cannot
 * know whether it was created; it sends it again with the same `Idempotency-Key`. One lead, one person, whatever the
 * interleaving, and every answer the first one's.
 */
describe('a lead sent again with its Idempotency-Key', () => {
  it('is created once, and the retry answers what the first did', async () => {
    const first = await send(lead('once@example.com'), 'web-form-0001');
    const retry = await send(lead('once@example.com'), 'web-form-0001');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ leadUuid: expect.stringMatching(UUID) });
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await leadsOf('once@example.com')).toEqual({ leads: 1, persons: 1 });
  });

  it('is created once when copies arrive together, forced past the lookup before any writes', async () => {
    // Inserts of persons wait while the table is held, so every copy finds no lead under the key and goes on to
    // write one: the second is refused by the lead's primary key, looks again, and answers the first's lead. Two
    // copies, the holder and this test's queries take the api's pool of four connections.
    const holder = api.db.createQueryRunner();
    await holder.connect();
    let replies: Reply[];
    try {
      await holder.startTransaction();
      await query(holder.manager, sql('LOCK TABLE persons IN SHARE MODE'));
      const sending = Promise.all(Array.from({ length: 2 }, () => send(lead('together@example.com'), 'call-centre-77')));
      await eventually(async () => expect(await sessionsWaitingForLocks(api.db)).toBe(2));
      await holder.commitTransaction();
      replies = await sending;
    } finally {
      await holder.release();
    }
    expect(replies.map((reply) => reply.status)).toEqual([200, 200]);
    expect(new Set(replies.map((reply) => (reply.body as { leadUuid: string }).leadUuid)).size).toBe(1);
    expect(replies.filter((reply) => reply.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    expect(await leadsOf('together@example.com')).toEqual({ leads: 1, persons: 1 });
  });

  it('answers the first request even after the lead’s person changed, the same request written differently included', async () => {
    const first = await send(lead('changed@example.com'), 'before-change');
    const [{ person_uuid: person }] = await query(api.db, sql<{ person_uuid: string }>('SELECT person_uuid FROM leads WHERE uuid = $1'), [
      (first.body as { leadUuid: string }).leadUuid,
    ]);
    const update = await api.call('PATCH', `/api/demo/portfolios/v1/tenants/person/${person}`, { body: { email: 'new-address@example.com' } });
    expect(update.status).toBe(200);
    // The same request: the email's case, the phone's punctuation and the spaces around a name are not the request.
    const retry = await send({ ...lead('CHANGED@example.com'), phone: '646-555-0101', firstName: ' Rosa ' }, 'before-change');
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
  });

  it('refuses the key for a different lead, and a malformed key', async () => {
    expect((await send(lead('reused@example.com'), 'reused-key')).status).toBe(200);
    const other = await send({ ...lead('reused@example.com'), desiredMoveInDate: '2031-05-01' }, 'reused-key');
    expectProblem(other, 422);
    expect(other.body).toMatchObject({ detail: expect.stringContaining('Idempotency-Key') });
    expect(await leadsOf('reused@example.com')).toEqual({ leads: 1, persons: 1 });
    expectProblem(await send(lead('bad-key@example.com'), 'with space'), 400, ['Idempotency-Key']);
  });

  it('creates a lead each time without a key, as before', async () => {
    await api.call('POST', LEADS, { body: lead('no-key@example.com') });
    await api.call('POST', LEADS, { body: lead('no-key@example.com') });
    expect(await leadsOf('no-key@example.com')).toEqual({ leads: 2, persons: 2 });
  });
});
