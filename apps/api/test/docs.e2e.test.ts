import { generateOpenApiDocument } from '../src/openapi/generate';
import { openApiSpecErrors, VALIDATOR_TIMEOUT_MS } from './support/openapi-spec-validator';
import { startTestApi, type TestApi } from './support/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api.close());

describe('served documentation', () => {
  it('serves the OpenAPI document at /openapi.json without a key, equal to the generated one', async () => {
    const reply = await api.call('GET', '/openapi.json', { key: null });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual(JSON.parse(JSON.stringify(await generateOpenApiDocument())));
  });

  it(
    'serves a document that openapi-spec-validator accepts',
    async () => {
      const reply = await api.call('GET', '/openapi.json', { key: null });
      expect(await openApiSpecErrors(reply.body)).toBe('');
    },
    VALIDATOR_TIMEOUT_MS,
  );

  it('serves Swagger UI at /docs', async () => {
    const page = await api.call('GET', '/docs', { key: null });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('/openapi.json');
    expect(page.text).toContain('<meta name="viewport" content="width=device-width,initial-scale=1">');
    expect((await api.call('GET', '/docs/swagger-ui-bundle.js', { key: null })).status).toBe(200);
    expect((await api.call('GET', '/docs/../package.json', { key: null })).status).toBe(404);
  });
});

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
