import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '@storage/testing';
import { databaseSnapshot } from './support/database-snapshot';

const cli = path.resolve(__dirname, '../dist/main.js');
const EXAMPLE = path.resolve(__dirname, '../../../docs/examples/portfolio.json');

let database: TestDatabase;
let dataDir: string;
beforeAll(async () => {
  database = await createTestDatabase();
  dataDir = await mkdtemp(path.join(tmpdir(), 'storage-import-'));
});
afterAll(async () => {
  await database.drop();
  await rm(dataDir, { recursive: true, force: true });
});

function runCli(...args: string[]): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [cli, ...args], {
    env: { PATH: process.env.PATH, DATABASE_URL: database.url, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

const rows = (digests: Record<string, string>, table: string): number => Number(digests[table].split(':')[0]);

describe('import <file>', () => {
  it('a dry run reports what the import would write and writes nothing', async () => {
    expect(runCli('db', 'migrate').status).toBe(0);
    const before = await databaseSnapshot(database.url);
    const dry = runCli('import', EXAMPLE, '--dry-run');
    expect(dry.output).toContain('dry run: 64 created if imported; nothing was written');
    expect(dry.status).toBe(0);
    expect(await databaseSnapshot(database.url)).toEqual(before);
  }, 180_000);

  it('loads the example portfolio, and a second run changes nothing and says so', async () => {
    const first = runCli('import', EXAMPLE);
    expect(first.output.split('\n')[0]).toBe(`importing ${EXAMPLE}`);
    expect(first.output).toContain('facility Harbor Storage Bayside (5107120e-0594-52ce-9280-82c712dcd9de): 14 units; 25 created');
    expect(first.output).toContain('imported portfolio harbor: 64 created');
    expect(first.status).toBe(0);
    const imported = await databaseSnapshot(database.url);
    expect(
      Object.fromEntries(
        [
          'portfolios',
          'facilities',
          'unit_types',
          'amenities',
          'rate_plans',
          'item_types',
          'lead_sources',
          'size_and_type_groups',
          'unit_groups',
          'unit_group_amenities',
          'units',
          'coverages',
          'promotions',
          'delinquency_schedules',
          'unit_group_occupancy_totals',
        ].map((table) => [table, rows(imported, table)]),
      ),
    ).toEqual({
      portfolios: 1,
      facilities: 2,
      unit_types: 3,
      amenities: 3,
      rate_plans: 1,
      item_types: 3,
      lead_sources: 3,
      size_and_type_groups: 4,
      unit_groups: 6,
      unit_group_amenities: 8,
      units: 28,
      coverages: 4,
      promotions: 4,
      delinquency_schedules: 2,
      unit_group_occupancy_totals: 6,
    });

    const second = runCli('import', EXAMPLE);
    expect(second.output).toContain('facility Harbor Storage Bayside (5107120e-0594-52ce-9280-82c712dcd9de): 14 units; 25 unchanged');
    expect(second.output).toContain('nothing changed: portfolio harbor already holds the file (64 records)');
    expect(second.status).toBe(0);
    expect(await databaseSnapshot(database.url)).toEqual(imported);

    // Its first key, as the README walks an operator through.
    const key = runCli('api-keys', 'create', '--portfolio', 'harbor');
    expect(key.status).toBe(0);
    expect(key.output).toMatch(/^API key \(write, harbor\); shown once, store it now:\nsk_[\w-]{43}\n$/);
  }, 240_000);

  it('applies an edited file as updates, and refuses a file the api would refuse with exit 2, writing nothing', async () => {
    const example = JSON.parse(await readFile(EXAMPLE, 'utf8')) as { facilities: { units: { name: string }[]; unitGroups: { ratePlanUuid: string }[] }[] };
    example.facilities[0].units[0].name = 'A99';
    const edited = path.join(dataDir, 'edited.json');
    await writeFile(edited, JSON.stringify(example));
    const update = runCli('import', edited);
    expect(update.output).toContain('imported portfolio harbor: 1 updated, 63 unchanged');
    expect(update.status).toBe(0);

    const before = await databaseSnapshot(database.url);
    example.facilities[1].unitGroups[0].ratePlanUuid = '00000000-0000-4000-8000-000000000000';
    example.facilities[0].units[1].name = 'A98';
    const broken = path.join(dataDir, 'broken.json');
    await writeFile(broken, JSON.stringify(example));
    const refused = runCli('import', broken);
    expect(refused.output).toContain(
      'facilities.1.unitGroups.0: ratePlanUuid 00000000-0000-4000-8000-000000000000 is no rate plan of this portfolio; nothing was imported',
    );
    expect(refused.status).toBe(2);
    expect(await databaseSnapshot(database.url)).toEqual(before);

    const typo = path.join(dataDir, 'typo.json');
    await writeFile(typo, JSON.stringify({ portfolio: { portfolioId: 'harbor', nmae: 'x' } }));
    const unknown = runCli('import', typo);
    expect(unknown.output).toContain('portfolio.nmae: property nmae should not exist');
    // The field the typo left out is named once, as required.
    expect(unknown.output).toContain('portfolio.name: portfolio.name is required\n');
    expect(unknown.status).toBe(2);
    expect(await databaseSnapshot(database.url)).toEqual(before);
  }, 240_000);

  it("refuses a file whose portfolio uuid is another portfolio's, or not the one its portfolio has, writing nothing", async () => {
    const portfolioFile = async (name: string, portfolio: { portfolioId: string; uuid: string }): Promise<string> => {
      const file = path.join(dataDir, name);
      await writeFile(file, JSON.stringify({ portfolio: { ...portfolio, name: 'Quay Storage' } }));
      return file;
    };
    const quay = { portfolioId: 'quay', uuid: '6f1c2b9e-0d4a-4c41-9a51-3b0f5b7e2a10' };
    expect(runCli('import', await portfolioFile('quay.json', quay)).status).toBe(0);
    const before = await databaseSnapshot(database.url);

    const taken = runCli('import', await portfolioFile('taken.json', { portfolioId: 'pier', uuid: quay.uuid }));
    expect(taken.output).toContain(`portfolio: uuid ${quay.uuid} is portfolio quay's; nothing was imported`);
    expect(taken.status).toBe(2);

    const moved = runCli('import', await portfolioFile('moved.json', { portfolioId: 'quay', uuid: '0b6e3f52-7c1d-4e8a-b2f4-9d5a6c7e8f90' }));
    expect(moved.output).toContain(`portfolio: portfolio quay's uuid is ${quay.uuid}, not 0b6e3f52-7c1d-4e8a-b2f4-9d5a6c7e8f90; nothing was imported`);
    expect(moved.status).toBe(2);
    expect(await databaseSnapshot(database.url)).toEqual(before);
  }, 120_000);
});
