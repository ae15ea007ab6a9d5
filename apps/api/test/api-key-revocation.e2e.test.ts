import { eventually } from '@storage/testing';
import { createApiKey } from '../src/auth/create-api-key';
import { listApiKeys, revokeApiKey } from '../src/auth/manage-api-keys';
import { startTestApi, type TestApi } from './support/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api.close());

const portfolios = (key: string) => api.call('GET', '/api/portfolios', { key });

describe('a revoked API key (api-keys revoke)', () => {
  it('is refused at once when the api has not seen it, and within the key cache lifetime when it has; other keys go on', async () => {
    const unused = await createApiKey(api.db, { portfolioIds: ['demo'], scope: 'write' });
    const used = await createApiKey(api.db, { portfolioIds: ['demo'], scope: 'read' });
    expect((await portfolios(used.key)).status).toBe(200);

    await revokeApiKey(api.db, unused.uuid);
    await revokeApiKey(api.db, used.key.slice(0, 8));
    expect((await portfolios(unused.key)).status).toBe(401);
    await eventually(async () => expect((await portfolios(used.key)).status).toBe(401), { timeoutMs: 15_000, intervalMs: 500 });
    expect((await portfolios(api.keys.read)).status).toBe(200);

    const listed = await listApiKeys(api.db, 'demo');
    expect(
      listed
        .filter((key) => key.revokedAt !== null)
        .map((key) => key.uuid)
        .sort(),
    ).toEqual([unused.uuid, used.uuid].sort());
    expect(JSON.stringify(listed)).not.toContain(used.key);
  }, 60_000);
});
