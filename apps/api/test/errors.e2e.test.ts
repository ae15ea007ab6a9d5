import { connect } from 'node:net';
import { expectProblem, id, startTestApi, type Reply, type TestApi } from './support/test-api';

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
    expectProblem(await api.call('DELETE', '/api/nowhere'), 404);
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
  });

  it('ignores `__proto__` and `constructor` keys as unknown fields (schemathesis: a schema-valid body was refused as not JSON), and they reach no prototype', async () => {
    const payload = '{"noteText":"ok","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}';
    const reply = await api.call('POST', NOTE, { payload, headers: { 'content-type': 'application/json' } });
    expect(reply.status).toBe(200);
    expect(({} as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it('ignores a NUL character in a field it ignores: unknown fields stay unknown (schemathesis: schema-valid bodies were refused)', async () => {
    const reply = await api.call('POST', NOTE, { body: { noteText: 'ok', 'key\u0000': 1, extra: [{ deep: 'x\u0000' }] } });
    expect(reply.status).toBe(200);
  });

  it('400 for JSON nested deeper than the limit, before validation walks it, never 500', async () => {
    for (const depth of [2_000, 100_000]) {
      const reply = await api.call('POST', NOTE, { payload: `{"noteText": "x", "deep": ${'['.repeat(depth)}${']'.repeat(depth)}}` });
      // The depth guard answered: it stops at the first level past the limit, where validation recursed to the bottom.
      expect(expectProblem(reply, 400)).toMatchObject({ detail: 'The JSON body is nested deeper than 32 levels.' });
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

  it('names a missing field once, as required, rather than every rule its absent value breaks', async () => {
    const note = await api.call('POST', NOTE, { body: {} });
    expect((note.body as { errors: unknown }).errors).toEqual([{ field: 'noteText', message: 'noteText is required' }]);
    const lead = await api.call('POST', '/shopping/demo/v1/leads', { body: { firstName: 'Only' } });
    const errors = (lead.body as { errors: { field: string; message: string }[] }).errors;
    expect(errors.map((error) => error.field)).toEqual(expect.arrayContaining(['facilityUuid', 'lastName']));
    expect(new Set(errors.map((error) => error.field)).size).toBe(errors.length);
    for (const { field, message } of errors) expect(message).toBe(`${field} is required`);
  });

  it('ignores unknown fields (tolerant reader) but validates known ones', async () => {
    const reply = await api.call('POST', NOTE, { body: { noteText: 'ok', extra: { deep: true } } });
    expect(reply.status).toBe(200);
  });

  it('414 for a path parameter longer than the router takes, without echoing it', async () => {
    const long = 'a'.repeat(20_000);
    for (const url of [`/shopping/${long}/v1/lead-sources`, `/shopping/demo/v1/coverages/${long}`]) {
      const reply = await api.call('GET', url);
      expectProblem(reply, 414);
      expect(reply.text.length).toBeLessThan(1_000);
    }
  });

  it('400 for a malformed percent escape in the path', async () => {
    expectProblem(await api.call('GET', '/shopping/de%zzmo/v1/lead-sources'), 400);
    expectProblem(await api.call('GET', '/shopping/%E0%A4%A/v1/lead-sources'), 400);
  });

  it('405 with Allow for a method the path does not take, 404 still for an unknown path', async () => {
    const reply = await api.call('DELETE', '/shopping/demo/v1/lead-sources');
    expectProblem(reply, 405);
    expect(reply.headers.allow).toBe('GET, HEAD');
    const put = await api.call('PUT', NOTE);
    expectProblem(put, 405);
    expect(put.headers.allow).toBe('POST');
    expectProblem(await api.call('PROPFIND', '/api/portfolios'), 405);
    expectProblem(await api.call('DELETE', '/nowhere'), 404);
  });

  it('405 for a method a static path does not take although a parameter route of the same shape does (the static path is the one meant)', async () => {
    for (const path of ['/shopping/demo/v1/facilities/tenant/check-preexisting', '/shopping/demo/v1/facilities/tenant/validate-preexisting']) {
      const reply = await api.call('GET', path);
      expectProblem(reply, 405);
      expect(reply.headers.allow).toBe('POST');
    }
    expect((await api.call('GET', `/shopping/demo/v1/facilities/tenant/${id('lead:1')}`)).status).not.toBe(405);
  });

  it('400 problem+json for a method HTTP does not define or CONNECT, and 414 for a request line longer than the server reads', async () => {
    const base = await api.listen();
    for (const [head, status] of [
      ['FOO /api/portfolios HTTP/1.1', 400],
      ['CONNECT localhost:443 HTTP/1.1', 400],
      [`GET /shopping/demo/v1/coverages/${'a'.repeat(70_000)} HTTP/1.1`, 414],
    ] as const) {
      const reply = await rawRequest(base, `${head}\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
      expectProblem(reply, status);
    }
  });

  it('415 for a body that is not JSON (text/plain, a form) on a JSON route, before validation', async () => {
    expectProblem(await api.call('POST', NOTE, { payload: '{"noteText":"plain"}', headers: { 'content-type': 'text/plain' } }), 415);
    expectProblem(await api.call('POST', NOTE, { payload: 'noteText=form', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415);
    // A route without a body takes a request without one, whatever its content type says.
    expect((await api.call('GET', '/shopping/demo/v1/lead-sources', { headers: { 'content-type': 'text/plain' } })).status).toBe(200);
  });

  it('415 for JSON in a charset other than UTF-8; UTF-8 in any spelling passes', async () => {
    for (const charset of ['latin1', 'iso-8859-1', 'utf-16']) {
      expectProblem(await api.call('POST', NOTE, { payload: '{"noteText":"x"}', headers: { 'content-type': `application/json; charset=${charset}` } }), 415);
    }
    for (const charset of ['utf-8', 'UTF-8', '"utf-8"', 'utf8']) {
      expect((await api.call('POST', NOTE, { payload: '{"noteText":"ok"}', headers: { 'content-type': `application/json; charset=${charset}` } })).status).toBe(
        200,
      );
    }
  });

  it('cuts a rejected value it echoes: a 200 KB value is not sent back whole', async () => {
    const huge = 'x'.repeat(200_000);
    const subscription = { vendorName: 'acme', targetUrl: 'https://hooks.example.com/a', description: 'd', portfolio: 'demo', eventTypes: [huge] };
    const replies = [
      await api.call('POST', '/api/v1/webhooks/subscriptions', { body: subscription }),
      await api.call('POST', '/shopping/demo/v1/leads', { body: { firstName: `${huge}\u0000` } }),
      await api.call('PUT', `/shopping/demo/v1/lead-sources?${huge}`),
    ];
    for (const reply of replies) {
      expect(reply.status).toBeGreaterThanOrEqual(400);
      expect(reply.status).toBeLessThan(500);
      expect(reply.text.length).toBeLessThan(2_000);
    }
  });
});

/** One request written byte for byte on a socket, for what an HTTP client library would refuse to send. */
function rawRequest(base: string, request: string): Promise<Reply> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.end(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head, ...rest] = Buffer.concat(chunks).toString('utf8').split('\r\n\r\n');
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      const text = rest.join('\r\n\r\n');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Not JSON: kept as text.
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body, text });
    });
  });
}
