import { stat, readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { balanceOf, PRIVATE_COVERAGE_UUID } from '@storage/domain';
import { asLedgerLines, billRentals, ledgerEntries } from '@storage/rental-ledger';
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
    const first = await seedDemo(db, { whenExists: 'keep', apiKey: key, dataDir, log: (line) => lines.push(line) });
    expect(first).toEqual({ seeded: true, apiKey: key });
    expect(lines.join('\n')).toContain(key);
    const file = path.join(dataDir, 'demo-api-key');
    expect((await readFile(file, 'utf8')).trim()).toBe(key);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const [stored] = await db.query('SELECT scope FROM api_keys WHERE key_hash = $1', [hashApiKey(key)]);
    expect(stored.scope).toBe('write');

    const second = await seedDemo(db, { whenExists: 'keep', apiKey: key, dataDir, log: () => undefined });
    expect(second.seeded).toBe(false);
    const [{ count }] = await db.query(`SELECT count(*)::int AS count FROM facilities f JOIN portfolios p ON p.uuid = f.portfolio_uuid WHERE p.portfolio_id = 'demo'`);
    expect(count).toBe(3);
  });

  it('bills as the scheduler does: only the tenants a month behind have a period due today, billed once; every balance is its ledger', async () => {
    const rentals: { uuid: string; balance: number }[] = await db.query(
      `SELECT r.uuid, r.balance_in_pennies AS balance FROM rental_records r JOIN portfolios p ON p.uuid = r.portfolio_uuid
        WHERE p.portfolio_id = 'demo' AND r.status = 'ACTIVE'`,
    );
    const owing = rentals.filter((rental) => rental.balance > 0);
    expect(owing.length).toBeGreaterThan(0);
    for (const rental of rentals) expect(rental.balance).toBe(balanceOf(asLedgerLines(await ledgerEntries(db.manager, rental.uuid))));
    // The behind owe the period before the one under way, which the business day of the seed's day bills (the demo
    // is seeded for the UTC date); nobody else is due.
    const latest: string = (await db.query(`SELECT (now() AT TIME ZONE 'UTC')::date::text AS today`))[0].today;
    const billed = await billRentals(db, rentals.map((rental) => rental.uuid), latest, { postedOn: latest, source: 'test' });
    expect(new Set(billed.billed)).toEqual(new Set(owing.map((rental) => rental.uuid)));
    expect((await billRentals(db, rentals.map((rental) => rental.uuid), latest, { postedOn: latest, source: 'test' })).billed).toEqual([]);
  });
});

describe('seed scale', () => {
  const FACILITIES = 12;
  const RENTALS = 1003;
  /** How many tenants, numbered 1… within each facility (an even share, the remainder to the first), pass `test`. */
  const tenantsWhere = (test: (n: number) => boolean): number => {
    let count = 0;
    for (let seq = 1; seq <= FACILITIES; seq++) {
      const share = Math.floor(RENTALS / FACILITIES) + (seq <= RENTALS % FACILITIES ? 1 : 0);
      for (let n = 1; n <= share; n++) if (test(n)) count++;
    }
    return count;
  };

  const progress: string[] = [];
  beforeAll(async () => {
    await seedScale(db, { portfolioId: 'scale-test', facilities: FACILITIES, rentals: RENTALS, log: (line) => progress.push(line) });
  });

  it('writes exactly the rentals asked for, spread over the facilities, with progress', async () => {
    const [row] = await db.query(
      `SELECT count(DISTINCT f.uuid)::int AS facilities, count(r.uuid)::int AS rentals,
              (SELECT count(*)::int FROM units u JOIN facilities f2 ON f2.uuid = u.facility_uuid JOIN portfolios p2 ON p2.uuid = f2.portfolio_uuid
               WHERE p2.portfolio_id = 'scale-test' AND u.status = 'vacant') AS vacant,
              (SELECT count(*)::int FROM gate_codes g JOIN rental_records r2 ON r2.uuid = g.rental_record_uuid JOIN portfolios p3 ON p3.uuid = r2.portfolio_uuid
               WHERE p3.portfolio_id = 'scale-test') AS gates
       FROM portfolios p JOIN facilities f ON f.portfolio_uuid = p.uuid LEFT JOIN rental_records r ON r.facility_uuid = f.uuid
       WHERE p.portfolio_id = 'scale-test'`,
    );
    expect(row).toEqual({ facilities: FACILITIES, rentals: RENTALS, vacant: expect.any(Number), gates: RENTALS });
    expect(row.vacant).toBeGreaterThan(0);
    expect(progress.some((line) => line.includes(`rentals ${RENTALS}/${RENTALS}`))).toBe(true);
    await expect(seedScale(db, { portfolioId: 'scale-test', facilities: 1, rentals: 1, log: () => undefined })).rejects.toThrow(/exists/);
  });

  it('gives every tenant of a parking space, and every tenth other tenant, a vehicle at the rental’s facility', async () => {
    const [row] = await db.query(
      `SELECT count(v.uuid)::int AS vehicles, count(DISTINCT v.rental_record_uuid)::int AS rentals,
              count(*) FILTER (WHERE v.facility_uuid <> r.facility_uuid OR length(v.vin) <> 17)::int AS inconsistent,
              (SELECT count(*)::int FROM rental_records r2 JOIN unit_groups g ON g.uuid = r2.unit_group_uuid
                 JOIN size_and_type_groups s ON s.uuid = g.size_and_type_group_uuid JOIN unit_types t ON t.uuid = s.unit_type_uuid
                 JOIN portfolios p2 ON p2.uuid = r2.portfolio_uuid
                WHERE p2.portfolio_id = 'scale-test' AND t.description = 'Vehicle Parking'
                  AND NOT EXISTS (SELECT 1 FROM vehicles v2 WHERE v2.rental_record_uuid = r2.uuid)) AS "parkedWithout"
       FROM vehicles v JOIN rental_records r ON r.uuid = v.rental_record_uuid JOIN portfolios p ON p.uuid = r.portfolio_uuid
       WHERE p.portfolio_id = 'scale-test'`,
    );
    // Unit n of a facility is in size (n mod 12) / 2; size 5 (12x35) is the parking.
    const expected = tenantsWhere((n) => Math.floor((n % 12) / 2) === 5 || n % 10 === 6);
    expect(row).toEqual({ vehicles: expected, rentals: expected, inconsistent: 0, parkedWithout: 0 });
  });

  it('gives four tenants in five a coverage history: one current enrollment, an ended one before it when they changed plan, some private', async () => {
    const [row] = await db.query(
      `SELECT count(*)::int AS enrollments, count(DISTINCT e.rental_record_uuid)::int AS covered,
              count(*) FILTER (WHERE e.end_date IS NULL)::int AS current, count(*) FILTER (WHERE e.end_date IS NOT NULL)::int AS ended,
              count(*) FILTER (WHERE e.coverage_uuid = $1 AND e.partner_coverage_id IS NOT NULL AND e.premium_in_pennies = 0)::int AS private,
              count(*) FILTER (WHERE e.coverage_uuid <> $1 AND (c.uuid IS NULL OR c.premium_in_pennies <> e.premium_in_pennies))::int AS "unknownCoverage",
              count(*) FILTER (WHERE e.facility_uuid <> r.facility_uuid OR (e.start_date AT TIME ZONE 'UTC')::date < r.start_date
                                  OR e.start_date > now() OR e.end_date <= e.start_date)::int AS inconsistent,
              count(*) FILTER (WHERE e.end_date IS NOT NULL AND NOT EXISTS (
                SELECT 1 FROM coverage_enrollments n WHERE n.rental_record_uuid = e.rental_record_uuid AND n.start_date = e.end_date AND n.end_date IS NULL))::int AS "endedWithoutNext"
       FROM coverage_enrollments e JOIN rental_records r ON r.uuid = e.rental_record_uuid JOIN portfolios p ON p.uuid = r.portfolio_uuid
       LEFT JOIN coverages c ON c.uuid = e.coverage_uuid AND c.facility_uuid = r.facility_uuid
       WHERE p.portfolio_id = 'scale-test'`,
      [PRIVATE_COVERAGE_UUID],
    );
    const covered = tenantsWhere((n) => n % 5 !== 2);
    const changed = tenantsWhere((n) => n % 5 !== 2 && n % 4 === 3);
    expect(row).toEqual({
      enrollments: covered + changed,
      covered,
      current: covered,
      ended: changed,
      private: tenantsWhere((n) => n % 5 !== 2 && n % 6 === 0),
      unknownCoverage: 0,
      inconsistent: 0,
      endedWithoutNext: 0,
    });
  });

  it('bills as the scheduler does: the period under way is billed, the tenth that owe it by an unpaid charge; today bills nobody again', async () => {
    const rentals: { uuid: string; balance: number; next: string; oldest: string | null }[] = await db.query(
      `SELECT r.uuid, r.balance_in_pennies AS balance, r.next_due_date::text AS next, r.oldest_open_due_on::text AS oldest
         FROM rental_records r JOIN portfolios p ON p.uuid = r.portfolio_uuid WHERE p.portfolio_id = 'scale-test'`,
    );
    const owing = rentals.filter((rental) => rental.balance > 0);
    expect(owing).toHaveLength(tenantsWhere((n) => n % 10 === 0));
    for (const rental of owing) {
      const entries = await ledgerEntries(db.manager, rental.uuid);
      expect(entries.map((entry) => [entry.kind, entry.periodTo])).toEqual([['RENT', rental.next]]);
      expect(rental.oldest).toBe(entries[0].dueOn);
    }
    const today: string = (await db.query(`SELECT current_date::text AS today`))[0].today;
    expect(rentals.every((rental) => rental.next > today)).toBe(true);
    expect((await billRentals(db, rentals.map((rental) => rental.uuid), today, { postedOn: today, source: 'test' })).billed).toEqual([]);
  });
});
