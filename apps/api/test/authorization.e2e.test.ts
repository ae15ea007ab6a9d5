import { DEMO_ROUTES } from './support/routes';
import { expectProblem, startTestApi, type TestApi } from './support/test-api';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api.close());

const TABLES = [
  'portfolios', 'facilities', 'unit_groups', 'units', 'persons', 'leads', 'notes', 'leases', 'notifications', 'tenant_verification_codes',
  'rental_records', 'gate_codes', 'vehicles', 'coverage_enrollments', 'api_keys',
];

/** A digest of every row of the api's tables: equal digests, nothing changed. */
async function snapshot(): Promise<Record<string, string>> {
  const entries = await Promise.all(
    TABLES.map(async (table) => {
      const [row] = await api.db.query(`SELECT count(*) || ':' || coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '') AS digest FROM ${table} t`);
      return [table, row.digest as string] as const;
    }),
  );
  return Object.fromEntries(entries);
}

describe('API key authorization', () => {
  it('the demo routes answer the demo key (control)', async () => {
    for (const route of DEMO_ROUTES) {
      const reply = await api.call(route.method, route.url, { body: route.body });
      expect({ route: route.name, status: reply.status }).toEqual({ route: route.name, status: 200 });
    }
  });

  it('a key of another portfolio gets 404 on every route, and nothing changes', async () => {
    const before = await snapshot();
    for (const route of DEMO_ROUTES) {
      const reply = await api.call(route.method, route.url, { body: route.body, key: api.keys.other });
      expect({ route: route.name, status: reply.status }).toEqual({ route: route.name, status: 404 });
      expectProblem(reply, 404);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('a read-only key gets 403 on every write and 200 on every read, and nothing changes', async () => {
    const before = await snapshot();
    for (const route of DEMO_ROUTES) {
      const reply = await api.call(route.method, route.url, { body: route.body, key: api.keys.read });
      expect({ route: route.name, status: reply.status }).toEqual({ route: route.name, status: route.write ? 403 : 200 });
      if (route.write) expectProblem(reply, 403);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('a missing key gets 401 on every route', async () => {
    for (const route of DEMO_ROUTES) {
      const reply = await api.call(route.method, route.url, { body: route.body, key: null });
      expect({ route: route.name, status: reply.status }).toEqual({ route: route.name, status: 401 });
    }
  });

  it('a key of another portfolio is refused before its input is looked at', async () => {
    const reply = await api.call('POST', '/api/demo/portfolios/v1/notes/lead/not-a-uuid', { body: {}, key: api.keys.other });
    expectProblem(reply, 404);
  });
});
