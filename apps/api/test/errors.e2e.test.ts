import { expectProblem, id, startTestApi, type TestApi } from './support/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api.close());

const NOTE = `/api/demo/portfolios/v1/notes/lead/${id('lead:1')}`;

describe('every failure is problem+json', () => {
  it('401 without a key or with an unknown one', async () => {
    expectProblem(await api.call('GET', '/api/portfolios', { key: null }), 401);
    expectProblem(await api.call('GET', '/api/portfolios', { key: 'sk_unknown' }), 401);
    expectProblem(await api.call('GET', '/shopping/demo/v1/lead-sources', { key: '' }), 401);
  });

  it('404 for unknown routes and portfolios', async () => {
    expectProblem(await api.call('GET', '/nowhere'), 404);
    expectProblem(await api.call('DELETE', '/api/portfolios'), 404);
    expectProblem(await api.call('GET', '/shopping/ghost/v1/lead-sources'), 404);
  });

  it('400 for malformed JSON, 415 for another content type, 413 for a body too large', async () => {
    expectProblem(await api.call('POST', NOTE, { payload: '{"noteText": ' }), 400);
    expectProblem(await api.call('POST', NOTE, { payload: '<note/>', headers: { 'content-type': 'application/xml' } }), 415);
    expectProblem(await api.call('POST', NOTE, { payload: JSON.stringify({ noteText: 'x'.repeat(300_000) }) }), 413);
  });

  it('400 for bodies that are not objects, never 500', async () => {
    for (const payload of ['null', '"text"', '42', '[]', 'true']) {
      const reply = await api.call('POST', NOTE, { payload });
      expect(reply.status).toBe(400);
      expect(String(reply.headers['content-type'])).toMatch(/^application\/problem\+json/);
    }
    expectProblem(await api.call('POST', NOTE, { key: api.keys.write }), 400, ['noteText']);
  });

  it('400 naming the field for a NUL character anywhere a string reaches the database, never 500', async () => {
    expectProblem(await api.call('GET', '/shopping/demo%00/v1/lead-sources'), 400, ['portfolio']);
    expectProblem(await api.call('GET', `/api/demo/portfolios/v1/notifications?leadUuid=${id('lead:1')}%00`), 400, ['leadUuid']);
    expectProblem(await api.call('POST', NOTE, { body: { noteText: 'before\u0000after' } }), 400, ['noteText']);
    const lead = { facilityUuid: id('facility:downtown'), firstName: 'Nul', lastName: 'Byte', email: 'nul@example.com' };
    expectProblem(await api.call('POST', '/shopping/demo/v1/leads', { body: { ...lead, firstName: 'N\u0000l' } }), 400, ['firstName']);
    expectProblem(await api.call('POST', '/shopping/demo/v1/leads', { body: { ...lead, extra: [{ deep: 'x\u0000' }] } }), 400, ['extra[0].deep']);
  });

  it('400 for JSON nested deeper than the limit, at once, never 500', async () => {
    for (const depth of [2_000, 100_000]) {
      const started = Date.now();
      expectProblem(await api.call('POST', NOTE, { payload: `{"noteText": "x", "deep": ${'['.repeat(depth)}${']'.repeat(depth)}}` }), 400);
      expect(Date.now() - started).toBeLessThan(200);
    }
    const nested = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    expectProblem(await api.call('POST', NOTE, { payload: `{"noteText": "x", "deep": ${nested(65)}}` }), 400);
    // Wide is not deep: an array of 100,000 items is refused by validation alone.
    expectProblem(await api.call('POST', NOTE, { payload: `{"noteText": [${Array(100_000).fill(1).join(',')}]}` }), 400, ['noteText']);
    // Within the limit, an ordinary body still goes through (the extra field is ignored).
    expect((await api.call('POST', NOTE, { payload: `{"noteText": "nested ok", "deep": ${nested(20)}}` })).status).toBe(200);
  });

  it('400 for a date PostgreSQL cannot hold (year 0000), never 500', async () => {
    const lead = { facilityUuid: id('facility:downtown'), firstName: 'Year', lastName: 'Zero', email: 'zero@example.com' };
    expectProblem(await api.call('POST', '/shopping/demo/v1/leads', { body: { ...lead, desiredMoveInDate: '0000-01-01' } }), 400, ['desiredMoveInDate']);
  });

  it('ignores unknown fields (tolerant reader) but validates known ones', async () => {
    const reply = await api.call('POST', NOTE, { body: { noteText: 'ok', extra: { deep: true } } });
    expect(reply.status).toBe(200);
  });
});
