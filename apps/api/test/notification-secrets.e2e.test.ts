import { createHash, scryptSync } from 'node:crypto';
import { id, list, PUBLIC_BASE_URL, sentSigningLink, startTestApi, type TestApi } from './support/test-api';
import { query, sql } from '@storage/persistence';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api.close());

const downtown = id('facility:downtown');
const base = '/api/demo/portfolios/v1';
const CHECK = '/shopping/demo/v1/facilities/tenant/check-preexisting';

interface Listed {
  body: string;
  subject: string;
}

/** Issue 14, "scopes do not hold", items 2 and 4: what notifications reveal and what they keep. */
describe('secrets of notifications (signing links, verification codes)', () => {
  let token: string;
  const lead = id('lead:1');

  beforeAll(async () => {
    expect((await api.call('POST', `${base}/facilities/${downtown}/leads/${lead}/sendLease`)).status).toBe(200);
    token = sentSigningLink(api.sentNotifications(), 'harper.lee@example.com').split('/').at(-1)!;
  });

  it('no key gets the lease message’s signing link back: the lease keeps only its hash', async () => {
    for (const key of [api.keys.read, api.keys.write]) {
      const listed = list<Listed>((await api.call('GET', `${base}/notifications?leadUuid=${lead}`, { key })).body);
      expect(listed).toEqual([expect.not.objectContaining({ link: expect.anything() })]);
      expect(JSON.stringify(listed)).not.toContain(token);
      expect(listed[0].body).toContain('ready to sign: [hidden]');
    }
  });

  it('stores neither the signing token nor the verification code in clear', async () => {
    const [person] = await query(api.db, sql<{ uuid: string; email: string }>('SELECT uuid, email FROM persons WHERE uuid = $1'), [id('person:0')]);
    expect((await api.call('POST', CHECK, { body: { facilityUuid: downtown, email: person.email } })).body.exists).toBe(true);
    const code = /code is (\d{6})/.exec(api.sentNotifications().at(-1)!.body)![1];

    const stored = await query(api.db, sql<{ body: string }>('SELECT body FROM notifications'));
    const all = JSON.stringify(stored);
    expect(all).not.toContain(token);
    expect(all).not.toContain(`code is ${code}`);

    // Listed to no one, whatever the key.
    for (const key of [api.keys.read, api.keys.write]) {
      const listed = JSON.stringify((await api.call('GET', `${base}/notifications`, { key })).body);
      expect(listed).toContain('verification code');
      expect(listed).not.toContain(`code is ${code}`);
    }
  });

  it('hashes verification codes with a salt: not the bare SHA-256, and the same code never hashes the same', async () => {
    const [person] = await query(api.db, sql<{ uuid: string; email: string }>('SELECT uuid, email FROM persons WHERE uuid = $1'), [id('person:0')]);
    const codes: string[] = [];
    for (let i = 0; i < 2; i += 1) {
      await api.call('POST', CHECK, { body: { facilityUuid: downtown, email: person.email } });
      codes.push(/code is (\d{6})/.exec(api.sentNotifications().at(-1)!.body)![1]);
    }
    const rows = await query(
      api.db,
      sql<{ code_hash: string }>('SELECT code_hash FROM tenant_verification_codes WHERE person_uuid = $1 ORDER BY created_at DESC LIMIT 2'),
      [person.uuid],
    );
    const bare = (code: string) => createHash('sha256').update(code).digest('hex');
    expect(rows.map((row) => row.code_hash)).not.toContain(bare(codes[0]));
    expect(rows.map((row) => row.code_hash)).not.toContain(bare(codes[1]));
    expect(rows[0].code_hash).not.toContain(bare(codes[1]));
    expect(new Set(rows.map((row) => row.code_hash)).size).toBe(2);
  });

  it('mixes a server key into the code: with the database alone, trying the million codes against a stored hash finds nothing', async () => {
    const [person] = await query(api.db, sql<{ uuid: string; email: string }>('SELECT uuid, email FROM persons WHERE uuid = $1'), [id('person:1')]);
    await api.call('POST', CHECK, { body: { facilityUuid: downtown, email: person.email } });
    const code = /code is (\d{6})/.exec(api.sentNotifications().at(-1)!.body)![1];
    const [{ code_hash: stored }] = await query(
      api.db,
      sql<{ code_hash: string }>('SELECT code_hash FROM tenant_verification_codes WHERE person_uuid = $1 ORDER BY created_at DESC LIMIT 1'),
      [person.uuid],
    );
    // What an attacker holding a dump would compute for the right code: every field of the row, the salt included.
    const [, salt, hash] = String(stored).split(':');
    const fromDumpAlone = scryptSync(code, Buffer.from(salt, 'base64url'), 32, { N: 1 << 13, r: 8, p: 1, maxmem: 32 * 1024 * 1024 });
    expect(hash).toHaveLength(43);
    expect(fromDumpAlone.toString('base64url')).not.toBe(hash);
  });
});

describe('signing tokens', () => {
  it('are kept as their SHA-256 alone: no column of the lease holds the token, and the link opens the lease by its hash', async () => {
    const lead = id('lead:3');
    expect((await api.call('POST', `${base}/facilities/${downtown}/leads/${lead}/sendLease`)).status).toBe(200);
    const token = new RegExp(`${PUBLIC_BASE_URL}/leases/sign/([\\w-]{43})`).exec(api.sentNotifications().at(-1)!.body)![1];
    const [lease] = await query(api.db, sql<{ row: Record<string, unknown> }>('SELECT to_jsonb(l) AS row FROM leases l WHERE lead_uuid = $1'), [lead]);
    expect(JSON.stringify(lease.row)).not.toContain(token);
    expect(lease.row.signing_token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect((await api.call('GET', `/leases/sign/${token}`, { key: null })).text).toContain('Sign the lease');
    expect((await api.call('GET', `/leases/sign/${String(lease.row.signing_token_hash)}`, { key: null })).status).toBe(404);
  });
});

describe('lease pages', () => {
  it('tell browsers not to sniff their type, on the page and on its refusals', async () => {
    for (const path of [new URL(sentSigningLink(api.sentNotifications(), 'harper.lee@example.com')).pathname, '/leases/sign/unknown-token']) {
      const page = await api.call('GET', path, { key: null });
      expect(String(page.headers['content-type'])).toMatch(/^text\/html/);
      expect(page.headers['x-content-type-options']).toBe('nosniff');
    }
  });
});
