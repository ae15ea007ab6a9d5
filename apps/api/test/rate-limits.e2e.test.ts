import { createApiKey } from '../src/auth/create-api-key';
import { expectProblem, id, type Reply, startTestApi, type TestApi } from './support/test-api';
import { query, sql } from '@storage/persistence';

/** Small limits, so that each is reached in a few calls (the defaults are far above what any test sends). */
const LIMITS = {
  RATE_LIMIT_KEY_PER_MINUTE: '60',
  RATE_LIMIT_KEY_BURST: '10',
  RATE_LIMIT_VERIFICATION_PER_MINUTE: '1',
  RATE_LIMIT_VERIFICATION_BURST: '8',
  RATE_LIMIT_LEASE_PAGE_PER_MINUTE: '1',
  RATE_LIMIT_LEASE_PAGE_BURST: '3',
  VERIFICATION_CODES_PER_PERSON_PER_HOUR: '2',
  VERIFICATION_ATTEMPTS_PER_PERSON_PER_HOUR: '3',
};

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi(LIMITS);
});
afterAll(async () => api.close());

const downtown = id('facility:downtown');
const CHECK = '/shopping/demo/v1/facilities/tenant/check-preexisting';
const VALIDATE = '/shopping/demo/v1/facilities/tenant/validate-preexisting';

const newKey = async (): Promise<string> => (await createApiKey(api.db, { portfolioIds: ['demo'], scope: 'write' })).key;

/** A 429 as the error contract says: problem+json, Retry-After in whole seconds, the limit named. */
function expectLimited(reply: Reply, policy: string): number {
  expectProblem(reply, 429);
  const retryAfter = Number(reply.headers['retry-after']);
  expect(Number.isInteger(retryAfter) && retryAfter >= 1).toBe(true);
  expect(String(reply.headers['ratelimit-policy'])).toMatch(new RegExp(`^"${policy}";q=\\d+;w=\\d+$`));
  expect(reply.headers.ratelimit).toBe(`"${policy}";r=0;t=${retryAfter}`);
  return retryAfter;
}

/** Calls until the first refusal; answers the refusal and how many calls succeeded before it (at most `max`). */
async function untilRefused(call: () => Promise<Reply>, max = 100): Promise<{ passed: number; refused: Reply }> {
  for (let passed = 0; passed < max; passed++) {
    const reply = await call();
    if (reply.status === 429) return { passed, refused: reply };
    expect(reply.status).toBe(200);
  }
  throw new Error(`no 429 after ${max} calls`);
}

async function tenantEmail(person: string): Promise<string> {
  const [row] = await query(api.db, sql<{ email: string }>('SELECT email FROM persons WHERE uuid = $1'), [id(person)]);
  return row.email;
}

describe('rate limits per API key and route class', () => {
  it('a key gets its burst, then 429 with Retry-After; another key is not affected', async () => {
    const key = await newKey();
    const started = Date.now();
    const { passed, refused } = await untilRefused(() => api.call('GET', '/api/portfolios', { key }));
    // 10 at once, and one a second refilled while the calls ran.
    expect(passed).toBeGreaterThanOrEqual(10);
    expect(passed).toBeLessThanOrEqual(10 + Math.ceil((Date.now() - started) / 1000));
    expect(expectLimited(refused, 'api-key')).toBeLessThanOrEqual(1);
    expect((await api.call('GET', '/api/portfolios', { key: await newKey() })).status).toBe(200);
  });

  it('check-preexisting and operation 2 are a stricter class of their own: refused there while the key reads on', async () => {
    const key = await newKey();
    const { passed, refused } = await untilRefused(() => api.call('POST', CHECK, { key, body: { facilityUuid: downtown, email: 'nobody@example.com' } }));
    expect(passed).toBe(8);
    expect(expectLimited(refused, 'verification')).toBeGreaterThan(30);
    expectLimited(await api.call('POST', VALIDATE, { key, body: { facilityUuid: downtown, email: 'nobody@example.com', code: '123456' } }), 'verification');
    expect((await api.call('GET', '/api/portfolios', { key })).status).toBe(200);
  });

  it('the limit is shared by the replicas: what one gave, the other does not give again', async () => {
    const key = await newKey();
    const replica = await api.startReplica();
    try {
      let turn = 0;
      const viaEither = async (): Promise<Reply> => {
        turn += 1;
        if (turn % 2 === 0) return api.call('GET', '/api/portfolios', { key });
        const response = await fetch(`${replica.url}/api/portfolios`, { headers: { 'x-api-key': key } });
        const text = await response.text();
        return { status: response.status, headers: Object.fromEntries(response.headers), body: JSON.parse(text) as unknown, text };
      };
      const started = Date.now();
      const { passed, refused } = await untilRefused(viaEither);
      expect(passed).toBeLessThanOrEqual(10 + Math.ceil((Date.now() - started) / 1000));
      expectLimited(refused, 'api-key');
      expectLimited(await viaEither(), 'api-key');
    } finally {
      await replica.close();
    }
  });
});

describe('lease pages, keyed by client address and signing link', () => {
  it('a client gets 3 pages, then 429 for any link', async () => {
    const { passed, refused } = await untilRefused(async () => {
      const reply = await api.call('GET', `/leases/sign/${'a'.repeat(43)}`, { key: null });
      // An unknown link is a 404 page, and counts as a request all the same.
      return reply.status === 404 ? { ...reply, status: 200 } : reply;
    });
    expect(passed).toBe(3);
    expectLimited(refused, 'lease-page');
    expectLimited(
      await api.call('POST', `/leases/sign/${'b'.repeat(43)}`, {
        key: null,
        payload: 'agree=yes',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      'lease-page',
    );
  });
});

describe('verification codes per person, whichever key asks', () => {
  it('a person gets 2 codes an hour: the third request is 429 and sends nothing; another person still gets one', async () => {
    const email = await tenantEmail('person:2');
    const sent = () => api.sentNotifications().filter((message) => message.recipient === email).length;
    for (const key of [await newKey(), await newKey()]) {
      expect((await api.call('POST', CHECK, { key, body: { facilityUuid: downtown, email } })).body).toEqual(expect.objectContaining({ exists: true }));
    }
    const retryAfter = expectLimited(await api.call('POST', CHECK, { key: await newKey(), body: { facilityUuid: downtown, email } }), 'codes-per-person');
    expect(retryAfter).toBeGreaterThan(25 * 60);
    expect(sent()).toBe(2);
    const other = await tenantEmail('person:3');
    expect((await api.call('POST', CHECK, { key: await newKey(), body: { facilityUuid: downtown, email: other } })).body.exists).toBe(true);
  });

  it('3 codes tried for a person an hour: the fourth is refused before it is read, right code or not', async () => {
    const email = await tenantEmail('person:4');
    expect((await api.call('POST', CHECK, { key: await newKey(), body: { facilityUuid: downtown, email } })).status).toBe(200);
    const mailed = api.sentNotifications().filter((message) => message.recipient === email);
    const code = /code is (\d{6})/.exec(mailed.at(-1)!.body)![1];
    const wrong = code === '000000' ? '000001' : '000000';
    for (let i = 0; i < 3; i++) {
      const reply = await api.call('POST', VALIDATE, { key: await newKey(), body: { facilityUuid: downtown, email, code: wrong } });
      expect(reply.body.valid).toBe(false);
    }
    const leadsBefore = await query(api.db, sql('SELECT count(*)::int AS n FROM leads'));
    expectLimited(await api.call('POST', VALIDATE, { key: await newKey(), body: { facilityUuid: downtown, email, code } }), 'attempts-per-person');
    expect(await query(api.db, sql('SELECT count(*)::int AS n FROM leads'))).toEqual(leadsBefore);
  });
});

describe('the OpenAPI document', () => {
  it('documents 429 with Retry-After on every operation', async () => {
    const document = (await api.call('GET', '/openapi.json', { key: null })).body as {
      paths: Record<string, Record<string, { responses: Record<string, { headers?: object }> }>>;
    };
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ operation: `${method} ${path}`, operation429: operation.responses['429'] })),
    );
    expect(operations.length).toBeGreaterThan(40);
    for (const { operation, operation429 } of operations) {
      expect({ operation, retryAfter: operation429?.headers !== undefined && 'Retry-After' in operation429.headers }).toEqual({ operation, retryAfter: true });
    }
  });
});
