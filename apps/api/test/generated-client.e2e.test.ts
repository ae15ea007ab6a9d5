import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import ts from 'typescript';
import { OPENAPI_FILE } from '../src/openapi/generate';
import { id, startTestApi, type TestApi } from './support/test-api';

// Its package exports no bin path; the command sits beside its entry point's dist folder.
const GENERATOR = path.join(path.dirname(require.resolve('openapi-typescript')), '..', 'bin', 'cli.js');

/** What an integrator writes against the generated types: three operations, typed end to end by openapi-fetch. */
const CLIENT = `import createClient from 'openapi-fetch';
import type { paths } from './schema';

export async function threeCalls(baseUrl: string, apiKey: string, facilityUuid: string) {
  const client = createClient<paths>({ baseUrl, headers: { 'x-api-key': apiKey } });
  const facilities = await client.GET('/shopping/{portfolio}/v1/facilities', { params: { path: { portfolio: 'demo' } } });
  const rentals = await client.GET('/api/{portfolio}/portfolios/v1/facilities/{facilityUuid}/rentalRecords', {
    params: { path: { portfolio: 'demo', facilityUuid }, query: { status: 'ACTIVE', limit: 5 } },
  });
  const subscriptions = await client.GET('/api/v1/webhooks/subscriptions', { params: { query: { portfolio: 'demo' } } });
  return {
    facilityNames: (facilities.data ?? []).map((facility) => facility.name),
    rentalUuids: (rentals.data?.rentalRecords ?? []).map((rental) => rental.rentalRecordUuid),
    subscriptions: subscriptions.response.status,
  };
}
`;

/** Its misuse, which the generated types must refuse: a path parameter missing, a query value of the wrong type. */
const MISUSE = `import createClient from 'openapi-fetch';
import type { paths } from './schema';

export async function misuse(client: ReturnType<typeof createClient<paths>>) {
  await client.GET('/api/{portfolio}/portfolios/v1/facilities/{facilityUuid}/rentalRecords', {
    params: { path: { portfolio: 'demo' } },
  });
  await client.GET('/api/{portfolio}/portfolios/v1/facilities/{facilityUuid}/rentalRecords', {
    params: { path: { portfolio: 'demo', facilityUuid: 'f' }, query: { limit: 'five' } },
  });
}
`;

/** Compiles the files strictly (CommonJS beside them); answers the diagnostics as text. */
function compile(files: string[], outDir: string): string[] {
  const program = ts.createProgram(files, {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    esModuleInterop: true,
    skipLibCheck: true,
    outDir,
  });
  const emitted = program.emit();
  return [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics].map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

/**
 * Issue 35: a client generated from /openapi.json by a mainstream generator (openapi-typescript's types with
 * openapi-fetch) compiles under strict TypeScript, refuses misuse at compile time, and calls a running api.
 */
describe('a client generated from the OpenAPI document', () => {
  let api: TestApi;
  let dir: string;

  beforeAll(async () => {
    api = await startTestApi();
    // Inside the workspace, so the client resolves openapi-fetch from node_modules as an integrator's project would.
    dir = await mkdtemp(path.join(__dirname, '.generated-client-'));
    // The generator's own command line, as an integrator runs it (`npx openapi-typescript openapi.json -o schema.ts`).
    await promisify(execFile)(process.execPath, [GENERATOR, OPENAPI_FILE, '--output', path.join(dir, 'schema.ts')]);
    await writeFile(path.join(dir, 'client.ts'), CLIENT);
    await writeFile(path.join(dir, 'misuse.ts'), MISUSE);
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('compiles under strict TypeScript', () => {
    expect(compile([path.join(dir, 'client.ts')], path.join(dir, 'out'))).toEqual([]);
  }, 60_000);

  it('refuses a missing path parameter and a query value of the wrong type at compile time', () => {
    const problems = compile([path.join(dir, 'misuse.ts')], path.join(dir, 'misuse-out')).join('\n');
    expect(problems).toMatch(/facilityUuid/);
    expect(problems).toMatch(/'string' is not assignable to type 'number'/);
  }, 60_000);

  it('calls three operations of a running api with the types it was generated with', async () => {
    compile([path.join(dir, 'client.ts')], path.join(dir, 'out'));
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the client is compiled by the test itself
    const { threeCalls } = require(path.join(dir, 'out', 'client.js')) as {
      threeCalls: (baseUrl: string, apiKey: string, facilityUuid: string) => Promise<{ facilityNames: string[]; rentalUuids: string[]; subscriptions: number }>;
    };
    const result = await threeCalls(await api.listen(), api.keys.write, id('facility:downtown'));
    expect(result.facilityNames.length).toBeGreaterThan(0);
    expect(result.rentalUuids.length).toBeGreaterThan(0);
    expect(result.rentalUuids.every((uuid) => /^[0-9a-f-]{36}$/.test(uuid))).toBe(true);
    expect(result.subscriptions).toBe(200);
  }, 60_000);
});
