import { stat, readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestDatabase, type TestDatabase } from '@storage/testing';
import { createDataSource } from '@storage/persistence';
import type { DataSource } from 'typeorm';
import { hashApiKey } from '../src/auth/api-key';
import { seedDemo } from '../src/seed/demo-seed';
import { demoTables } from '../src/seed/demo-data';
import { seedScale } from '../src/seed/scale-seed';

let database: TestDatabase;
let db: DataSource;
let dataDir: string;
beforeAll(async () => {
  database = await createTestDatabase();
  db = await createDataSource({ url: database.url, applicationName: 'seed-test' }).initialize();
  dataDir = await mkdtemp(path.join(tmpdir(), 'seed-test-'));
});
afterAll(async () => {
  await db.destroy();
  await database.drop();
  await rm(dataDir, { recursive: true, force: true });
});

describe('seed demo', () => {
  it('is deterministic for a given day', () => {
    expect(demoTables('2025-06-15')).toEqual(demoTables('2025-06-15'));
  });

  it('covers three time zones, every coverage provider, both promotion families and private coverage', () => {
    const t = demoTables('2025-06-15');
    expect(new Set(t.facilities.map((f) => f.timeZone)).size).toBe(3);
    expect(new Set(t.coverages.map((c) => c.provider)).size).toBe(5);
    expect(new Set(t.promotions.map((p) => p.family))).toEqual(new Set(['RENT', 'DISCOUNTED_SERVICE']));
    expect(t.coverage_enrollments.some((e) => e.coverageUuid === '11111111-1111-1111-1111-111111111111')).toBe(true);
    expect(t.vehicles.length).toBeGreaterThan(0);
  });

  it('seeds once with --if-empty, uses DEMO_API_KEY and writes it to <dataDir>/demo-api-key (mode 600)', async () => {
    const key = 'sk_demo_key_for_tests_0123456789';
    const lines: string[] = [];
    const first = await seedDemo(db, { ifEmpty: true, apiKey: key, dataDir, log: (line) => lines.push(line) });
    expect(first).toEqual({ seeded: true, apiKey: key });
    expect(lines.join('\n')).toContain(key);
    const file = path.join(dataDir, 'demo-api-key');
    expect((await readFile(file, 'utf8')).trim()).toBe(key);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const [stored] = await db.query('SELECT scope FROM api_keys WHERE key_hash = $1', [hashApiKey(key)]);
    expect(stored.scope).toBe('write');

    const second = await seedDemo(db, { ifEmpty: true, apiKey: key, dataDir, log: () => undefined });
    expect(second.seeded).toBe(false);
    const [{ count }] = await db.query(`SELECT count(*)::int AS count FROM facilities f JOIN portfolios p ON p.uuid = f.portfolio_uuid WHERE p.portfolio_id = 'demo'`);
    expect(count).toBe(3);
  });
});

describe('seed scale', () => {
  it('writes exactly the rentals asked for, spread over the facilities, with progress', async () => {
    const lines: string[] = [];
    await seedScale(db, { portfolioId: 'scale-test', facilities: 12, rentals: 1003, log: (line) => lines.push(line) });
    const [row] = await db.query(
      `SELECT count(DISTINCT f.uuid)::int AS facilities, count(r.uuid)::int AS rentals,
              (SELECT count(*)::int FROM units u JOIN facilities f2 ON f2.uuid = u.facility_uuid JOIN portfolios p2 ON p2.uuid = f2.portfolio_uuid
               WHERE p2.portfolio_id = 'scale-test' AND u.status = 'vacant') AS vacant,
              (SELECT count(*)::int FROM gate_codes g JOIN rental_records r2 ON r2.uuid = g.rental_record_uuid JOIN portfolios p3 ON p3.uuid = r2.portfolio_uuid
               WHERE p3.portfolio_id = 'scale-test') AS gates
       FROM portfolios p JOIN facilities f ON f.portfolio_uuid = p.uuid LEFT JOIN rental_records r ON r.facility_uuid = f.uuid
       WHERE p.portfolio_id = 'scale-test'`,
    );
    expect(row).toEqual({ facilities: 12, rentals: 1003, vacant: expect.any(Number), gates: 1003 });
    expect(row.vacant).toBeGreaterThan(0);
    expect(lines.some((line) => line.includes('rentals 1003/1003'))).toBe(true);
    await expect(seedScale(db, { portfolioId: 'scale-test', facilities: 1, rentals: 1, log: () => undefined })).rejects.toThrow(/exists/);
  });
});
