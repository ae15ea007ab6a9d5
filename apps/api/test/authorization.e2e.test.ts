import { createApiKey } from '../src/auth/create-api-key';
import { revokeApiKey } from '../src/auth/manage-api-keys';
import { walkRoutes, type RouteCall } from './support/routes';
import { expectProblem, startTestApi, type Reply, type TestApi } from './support/test-api';
import { query, sql } from '@storage/persistence';

interface DocumentedOperation {
  security?: Record<string, string[]>[];
  responses: Record<string, unknown>;
  'x-api-key-scope'?: string;
}

let api: TestApi;
let routes: RouteCall[];
/** The operations of the app's own /openapi.json, by `METHOD /path`. */
let documented: Record<string, DocumentedOperation>;
beforeAll(async () => {
  api = await startTestApi();
  routes = await walkRoutes(api);
  const document = (await api.call('GET', '/openapi.json', { key: null })).body as { paths: Record<string, Record<string, DocumentedOperation>> };
  documented = Object.fromEntries(
    Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => [`${method.toUpperCase()} ${path}`, operation]),
    ),
  );
});
afterAll(async () => api.close());

/** The lease pages take no API key: the unguessable token of the signing link is the credential. */
const KEYLESS = ['GET /leases/sign/{token}', 'POST /leases/sign/{token}'];
/** Routes outside the API document: the document itself, its viewer and the probes, which hold no portfolio data. */
const SERVICE_ROUTES = ['GET /', 'GET /openapi.json', 'GET /openapi.yaml', 'GET /docs', 'GET /docs/:file', 'GET /health/live', 'GET /health/ready'];

/**
 * A digest of every row of every table: equal digests, nothing changed (events included: the outbox is a table).
 * Every call counts against its key's rate limit, refused or not: `api_rate_limits` is the one table left out.
 */
async function snapshot(): Promise<Record<string, string>> {
  const tables = await query(
    api.db,
    sql<{ name: string }>(`SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'api_rate_limits' ORDER BY table_name`),
  );
  const entries = await Promise.all(
    tables.map(async ({ name }) => {
      const [row] = await query(
        api.db,
        sql<{ digest: string }>(`SELECT count(*) || ':' || coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '') AS digest FROM "${name}" t`),
      );
      return [name, row.digest] as const;
    }),
  );
  return Object.fromEntries(entries);
}

const send = (route: RouteCall, key: string | null): Promise<Reply> => api.call(route.method, route.url, { body: route.body, key });
/** The scope the walk expects the document to name. */
const scopeOf = (route: RouteCall): string => (route.reach === 'admin' ? 'admin' : route.write ? 'write' : 'read');

/** The answer, and whether the operation's OpenAPI entry documents it. */
const answer = (route: RouteCall, reply: Reply) => ({
  route: route.operation,
  status: reply.status,
  documented: String(reply.status) in documented[route.operation].responses,
});

describe('the walk covers every route', () => {
  it('calls every documented operation but the keyless lease pages, each once', () => {
    expect([...routes.map((route) => route.operation), ...KEYLESS].sort()).toEqual(Object.keys(documented).sort());
  });

  it('every route the app registers is a documented operation or a service route', () => {
    const documentedRoutes = Object.keys(documented).map((operation) => operation.replace(/\{(\w+)\}/g, ':$1'));
    expect([...api.routes].sort()).toEqual([...documentedRoutes, ...SERVICE_ROUTES].sort());
  });

  it('the keyless operations are documented without the key, the others with the scope the walk expects', () => {
    for (const operation of KEYLESS) expect(documented[operation].security).toEqual([]);
    for (const route of routes) {
      expect({ route: route.operation, security: documented[route.operation].security }).toEqual({ route: route.operation, security: [{ apiKey: [] }] });
      expect({ route: route.operation, scope: documented[route.operation]['x-api-key-scope'] }).toEqual({ route: route.operation, scope: scopeOf(route) });
    }
  });
});

// In this order: the refused calls run against the prepared state, and the last test shows each one would have succeeded.
describe('API key authorization', () => {
  it('a key of another portfolio gets 404 on every route (its own portfolios on operation 6, 403 on admin routes), and nothing changes', async () => {
    const before = await snapshot();
    for (const route of routes) {
      const reply = await send(route, api.keys.other);
      if (route.reach === 'admin') {
        expect(answer(route, reply)).toEqual({ route: route.operation, status: 403, documented: true });
        expectProblem(reply, 403);
        continue;
      }
      if (route.reach === 'key') {
        expect({ route: route.operation, status: reply.status, body: reply.body }).toEqual({
          route: route.operation,
          status: 200,
          body: [{ portfolioId: 'other', portfolioName: 'Other Co.' }],
        });
        continue;
      }
      expect(answer(route, reply)).toEqual({ route: route.operation, status: 404, documented: true });
      expectProblem(reply, 404);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('a read-only key gets 403 on every write and 200 on every read, and nothing changes', async () => {
    const before = await snapshot();
    for (const route of routes) {
      const reply = await send(route, api.keys.read);
      expect(answer(route, reply)).toEqual({ route: route.operation, status: route.write ? 403 : 200, documented: true });
      if (route.write) expectProblem(reply, 403);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('a missing key gets 401 on every route, and nothing changes', async () => {
    const before = await snapshot();
    for (const route of routes) {
      const reply = await send(route, null);
      expect(answer(route, reply)).toEqual({ route: route.operation, status: 401, documented: true });
      expectProblem(reply, 401);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('a revoked key gets 401 on every route, and nothing changes', async () => {
    const revoked = await createApiKey(api.db, { portfolioIds: ['demo'], scope: 'write' });
    await revokeApiKey(api.db, revoked.uuid);
    const before = await snapshot();
    for (const route of routes) {
      const reply = await send(route, revoked.key);
      expect(answer(route, reply)).toEqual({ route: route.operation, status: 401, documented: true });
      expectProblem(reply, 401);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('a key of another portfolio is refused before its input is looked at', async () => {
    const reply = await api.call('POST', '/api/demo/portfolios/v1/notes/lead/not-a-uuid', { body: {}, key: api.keys.other });
    expectProblem(reply, 404);
  });

  it('a portfolio write key gets 403 on admin routes, and nothing changes', async () => {
    const before = await snapshot();
    for (const route of routes.filter((walked) => walked.reach === 'admin')) {
      const reply = await send(route, api.keys.write);
      expect(answer(route, reply)).toEqual({ route: route.operation, status: 403, documented: true });
      expectProblem(reply, 403);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('the demo write key (an admin key on admin routes) makes every one of the walked calls succeed (so the refusals above were of valid calls)', async () => {
    for (const route of routes) {
      const reply = await send(route, route.reach === 'admin' ? api.keys.admin : api.keys.write);
      expect({ route: route.operation, status: reply.status }).toEqual({ route: route.operation, status: 200 });
    }
  });
});
