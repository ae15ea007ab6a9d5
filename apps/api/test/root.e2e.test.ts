import { startTestApi, type TestApi } from './support/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api.close());

describe('the base address', () => {
  it('answers, without a key, where the documentation, the OpenAPI document and the health check are, each of them served', async () => {
    const root = await api.call('GET', '/', { key: null });
    expect(root.status).toBe(200);
    expect(root.body).toEqual({
      service: 'Storage Rental Service API',
      docs: '/docs',
      openapi: '/openapi.json',
      health: '/health/ready',
      authentication: 'x-api-key header',
    });
    for (const link of [root.body.docs, root.body.openapi]) expect((await api.call('GET', link, { key: null })).status).toBe(200);
  });
});
