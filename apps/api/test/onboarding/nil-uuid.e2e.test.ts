import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { query, sql } from '@storage/persistence';
import { readPortfolioFile } from '../../src/onboarding/import/portfolio-file';
import { expectProblem, id, startTestApi, type TestApi } from '../support/test-api';

const NIL = '00000000-0000-0000-0000-000000000000';
const OPS = '/api/demo/portfolios/v1';
const AT = `${OPS}/facilities/${id('facility:downtown')}`;

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => api.close());

describe('the nil UUID as the id of a record an onboarding PUT creates', () => {
  it.each([
    [`${OPS}/unitTypes/${NIL}`, 'unitTypeUuid', { description: 'Nil' }],
    [`${OPS}/amenities/${NIL}`, 'amenityUuid', { description: 'Nil' }],
    [
      `${OPS}/ratePlans/${NIL}`,
      'ratePlanUuid',
      { name: 'Nil', occupancyBands: [{ minOccupancyPercent: 0, maxOccupancyPercent: 100, streetAdjustmentPercent: 0, webAdjustmentPercent: 0 }] },
    ],
    [`${OPS}/itemTypes/${NIL}`, 'itemTypeUuid', { name: 'Nil', kind: 'FEE', priceInPennies: 100 }],
    [`${OPS}/leadSources/${NIL}`, 'leadSourceUuid', { description: 'Nil' }],
    [
      `${OPS}/facilities/${NIL}`,
      'facilityUuid',
      {
        name: 'Nil',
        addressLine1: '1 Main St',
        city: 'Austin',
        state: 'TX',
        zip: '78701',
        phone: '(512) 555-0100',
        timeZone: 'America/Chicago',
        operatingHours: {},
      },
    ],
    [`${AT}/sizeAndTypeGroups/${NIL}`, 'sizeAndTypeGroupUuid', {}],
    [`${AT}/unitGroups/${NIL}`, 'unitGroupUuid', {}],
    [`${AT}/units/${NIL}`, 'unitUuid', {}],
    [`${AT}/promotions/${NIL}`, 'promotionUuid', {}],
    [`${AT}/coverages/${NIL}`, 'coverageUuid', {}],
  ])('PUT %s is 400 naming %s', async (url, field, body) => {
    const problem = expectProblem(await api.call('PUT', url, { body }), 400, [field]);
    expect(problem.errors).toEqual([{ field, message: expect.stringContaining('nil UUID') }]);
  });

  it('left no record under the nil UUID', async () => {
    const tables = [
      'unit_types',
      'amenities',
      'rate_plans',
      'item_types',
      'lead_sources',
      'facilities',
      'size_and_type_groups',
      'unit_groups',
      'units',
      'promotions',
      'coverages',
    ];
    const counts = tables.map((table) => `SELECT '${table}' AS "table", count(*)::int AS n FROM ${table} WHERE uuid = '${NIL}'`);
    const found = await query(api.db, sql<{ table: string; n: number }>(counts.join(' UNION ALL ')));
    expect(found.filter((row) => row.n > 0)).toEqual([]);
  });

  it('is refused in an import file too, naming the record, before anything is written', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'nil-uuid-import-'));
    try {
      const example = JSON.parse(await readFile(path.resolve(__dirname, '../../../../docs/examples/portfolio.json'), 'utf8')) as {
        unitTypes: { uuid: string }[];
        facilities: { uuid: string; units: { uuid: string }[] }[];
      };
      example.unitTypes[0].uuid = NIL;
      example.facilities[0].units[1].uuid = NIL;
      const file = path.join(dir, 'portfolio.json');
      await writeFile(file, JSON.stringify(example));
      const refused = readPortfolioFile(file);
      await expect(refused).rejects.toThrow(/unitTypes\.0\.uuid: .*nil UUID/);
      await expect(refused).rejects.toThrow(/facilities\.0\.units\.1\.uuid: .*nil UUID/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
