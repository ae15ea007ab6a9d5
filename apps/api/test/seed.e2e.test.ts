import { randomUUID } from 'node:crypto';
import { stat, readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { balanceOf, PRIVATE_COVERAGE_UUID } from '@storage/domain';
import { asLedgerLines, billRentals, ledgerEntries, recordPayments } from '@storage/rental-ledger';
import { createTestDatabase, type TestDatabase } from '@storage/testing';
import { createDataSource, query, sql } from '@storage/persistence';
import type { DataSource } from 'typeorm';
import { hashApiKey } from '../src/auth/api-key';
import { seedDemo } from '../src/seed/demo-seed';
import { DEMO_PORTFOLIO_UUID, demoPortfolio } from '../src/seed/demo-data';
import { seedScale } from '../src/seed/scale-seed';
import { importRentals, type ExistingRental } from '@storage/rentals';
import { bringToAuction } from './support/delinquency';

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
    expect(demoPortfolio('2025-06-15')).toEqual(demoPortfolio('2025-06-15'));
  });

  it('covers three time zones, every coverage provider, both promotion families and private coverage', () => {
    const { portfolio, rentals } = demoPortfolio('2025-06-15');
    expect(new Set(portfolio.facilities.map((f) => f.timeZone)).size).toBe(3);
    expect(new Set(portfolio.facilities.flatMap((f) => f.coverages.map((c) => c.provider))).size).toBe(5);
    expect(new Set(portfolio.facilities.flatMap((f) => f.promotions.map((p) => p.family ?? 'RENT')))).toEqual(new Set(['RENT', 'DISCOUNTED_SERVICE']));
    expect(rentals.some((r) => r.coverageEnrollments.some((e) => e.coverageUuid === PRIVATE_COVERAGE_UUID))).toBe(true);
    expect(rentals.some((r) => r.vehicles.length > 0)).toBe(true);
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
    const [stored] = await query(db, sql<{ scope: string }>('SELECT scope FROM api_keys WHERE key_hash = $1'), [hashApiKey(key)]);
    expect(stored.scope).toBe('write');

    const second = await seedDemo(db, { whenExists: 'keep', apiKey: key, dataDir, log: () => undefined });
    expect(second.seeded).toBe(false);
    const [{ count }] = await query(
      db,
      sql(`SELECT count(*)::int AS count FROM facilities f JOIN portfolios p ON p.uuid = f.portfolio_uuid WHERE p.portfolio_id = 'demo'`),
    );
    expect(count).toBe(3);
    // Written through onboarding, keeping the demo's own ids.
    const [portfolio] = await query(
      db,
      sql(
        `SELECT p.uuid, (SELECT count(*)::int FROM lead_marketing_sources s WHERE s.portfolio_uuid = p.uuid) AS "marketingSources" FROM portfolios p WHERE p.portfolio_id = 'demo'`,
      ),
    );
    expect(portfolio).toEqual({ uuid: DEMO_PORTFOLIO_UUID, marketingSources: 4 });
  });

  it('gives a kept demo a new key when its key file is missing (a first start stopped before writing it)', async () => {
    const file = path.join(dataDir, 'demo-api-key');
    await seedDemo(db, { whenExists: 'keep', dataDir, log: () => undefined }); // the demo exists, whatever ran before
    await rm(file);
    const lines: string[] = [];
    const kept = await seedDemo(db, { whenExists: 'keep', dataDir, log: (line) => lines.push(line) });
    expect(kept).toEqual({ seeded: false, apiKey: expect.stringMatching(/^sk_/) });
    expect((await readFile(file, 'utf8')).trim()).toBe(kept.apiKey);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(lines.join('\n')).toContain(kept.apiKey);
    const [stored] = await query(db, sql<{ scope: string }>('SELECT scope FROM api_keys WHERE key_hash = $1'), [hashApiKey(kept.apiKey!)]);
    expect(stored.scope).toBe('write');

    // With the file there, a boot issues nothing.
    expect(await seedDemo(db, { whenExists: 'keep', dataDir, log: () => undefined })).toEqual({ seeded: false, apiKey: null });
    expect((await readFile(file, 'utf8')).trim()).toBe(kept.apiKey);
  });

  it('bills as the scheduler does: only the tenants a month behind have a period due today, billed once; every balance is its ledger', async () => {
    const rentals = await query(
      db,
      sql<{
        uuid: string;
        balance: number;
      }>(`SELECT r.uuid, r.balance_in_pennies AS balance FROM rental_records r JOIN portfolios p ON p.uuid = r.portfolio_uuid
        WHERE p.portfolio_id = 'demo' AND r.status = 'ACTIVE'`),
    );
    const owing = rentals.filter((rental) => rental.balance > 0);
    expect(owing.length).toBeGreaterThan(0);
    for (const rental of rentals) expect(rental.balance).toBe(balanceOf(asLedgerLines(await ledgerEntries(db.manager, rental.uuid))));
    // The behind owe the period before the one under way, which the business day of the seed's day bills (the demo
    // is seeded for the UTC date); nobody else is due.
    const latest: string = (await query(db, sql<{ today: string }>(`SELECT (now() AT TIME ZONE 'UTC')::date::text AS today`)))[0].today;
    const billed = await billRentals(
      db,
      rentals.map((rental) => rental.uuid),
      latest,
      { postedOn: latest, source: 'test' },
    );
    expect(new Set(billed.billed)).toEqual(new Set(owing.map((rental) => rental.uuid)));
    expect(
      (
        await billRentals(
          db,
          rentals.map((rental) => rental.uuid),
          latest,
          { postedOn: latest, source: 'test' },
        )
      ).billed,
    ).toEqual([]);
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
    const [row] = await query(
      db,
      sql<{
        facilities: number;
        rentals: number;
        vacant: number;
        gates: number;
      }>(`SELECT count(DISTINCT f.uuid)::int AS facilities, count(r.uuid)::int AS rentals,
              (SELECT count(*)::int FROM units u JOIN facilities f2 ON f2.uuid = u.facility_uuid JOIN portfolios p2 ON p2.uuid = f2.portfolio_uuid
               WHERE p2.portfolio_id = 'scale-test' AND u.status = 'vacant') AS vacant,
              (SELECT count(*)::int FROM gate_codes g JOIN rental_records r2 ON r2.uuid = g.rental_record_uuid JOIN portfolios p3 ON p3.uuid = r2.portfolio_uuid
               WHERE p3.portfolio_id = 'scale-test') AS gates
       FROM portfolios p JOIN facilities f ON f.portfolio_uuid = p.uuid LEFT JOIN rental_records r ON r.facility_uuid = f.uuid
       WHERE p.portfolio_id = 'scale-test'`),
    );
    expect(row).toEqual({ facilities: FACILITIES, rentals: RENTALS, vacant: expect.any(Number), gates: RENTALS });
    expect(row.vacant).toBeGreaterThan(0);
    expect(progress.some((line) => line.includes(`rentals ${RENTALS}/${RENTALS}`))).toBe(true);
    await expect(seedScale(db, { portfolioId: 'scale-test', facilities: 1, rentals: 1, log: () => undefined })).rejects.toThrow(/exists/);
  });

  it('gives every tenant of a parking space, and every tenth other tenant, a vehicle at the rental’s facility', async () => {
    const [row] = await query(
      db,
      sql(`SELECT count(v.uuid)::int AS vehicles, count(DISTINCT v.rental_record_uuid)::int AS rentals,
              count(*) FILTER (WHERE v.facility_uuid <> r.facility_uuid OR length(v.vin) <> 17)::int AS inconsistent,
              (SELECT count(*)::int FROM rental_records r2 JOIN unit_groups g ON g.uuid = r2.unit_group_uuid
                 JOIN size_and_type_groups s ON s.uuid = g.size_and_type_group_uuid JOIN unit_types t ON t.uuid = s.unit_type_uuid
                 JOIN portfolios p2 ON p2.uuid = r2.portfolio_uuid
                WHERE p2.portfolio_id = 'scale-test' AND t.description = 'Vehicle Parking'
                  AND NOT EXISTS (SELECT 1 FROM vehicles v2 WHERE v2.rental_record_uuid = r2.uuid)) AS "parkedWithout"
       FROM vehicles v JOIN rental_records r ON r.uuid = v.rental_record_uuid JOIN portfolios p ON p.uuid = r.portfolio_uuid
       WHERE p.portfolio_id = 'scale-test'`),
    );
    // Unit n of a facility is in size (n mod 12) / 2; size 5 (12x35) is the parking.
    const expected = tenantsWhere((n) => Math.floor((n % 12) / 2) === 5 || n % 10 === 6);
    expect(row).toEqual({ vehicles: expected, rentals: expected, inconsistent: 0, parkedWithout: 0 });
  });

  it('gives four tenants in five a coverage history: one current enrollment, an ended one before it when they changed plan, some private', async () => {
    const [row] = await query(
      db,
      sql(`SELECT count(*)::int AS enrollments, count(DISTINCT e.rental_record_uuid)::int AS covered,
              count(*) FILTER (WHERE e.end_date IS NULL)::int AS current, count(*) FILTER (WHERE e.end_date IS NOT NULL)::int AS ended,
              count(*) FILTER (WHERE e.coverage_uuid = $1 AND e.partner_coverage_id IS NOT NULL AND e.premium_in_pennies = 0)::int AS private,
              count(*) FILTER (WHERE e.coverage_uuid <> $1 AND (c.uuid IS NULL OR c.premium_in_pennies <> e.premium_in_pennies))::int AS "unknownCoverage",
              count(*) FILTER (WHERE e.facility_uuid <> r.facility_uuid OR (e.start_date AT TIME ZONE 'UTC')::date < r.start_date
                                  OR e.start_date > now() OR e.end_date <= e.start_date)::int AS inconsistent,
              count(*) FILTER (WHERE e.end_date IS NOT NULL AND NOT EXISTS (
                SELECT 1 FROM coverage_enrollments n WHERE n.rental_record_uuid = e.rental_record_uuid AND n.start_date = e.end_date AND n.end_date IS NULL))::int AS "endedWithoutNext"
       FROM coverage_enrollments e JOIN rental_records r ON r.uuid = e.rental_record_uuid JOIN portfolios p ON p.uuid = r.portfolio_uuid
       LEFT JOIN coverages c ON c.uuid = e.coverage_uuid AND c.facility_uuid = r.facility_uuid
       WHERE p.portfolio_id = 'scale-test'`),
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
    const rentals = await query(
      db,
      sql<{
        uuid: string;
        balance: number;
        next: string;
        oldest: string | null;
      }>(`SELECT r.uuid, r.balance_in_pennies AS balance, r.next_due_date::text AS next, r.oldest_open_due_on::text AS oldest
         FROM rental_records r JOIN portfolios p ON p.uuid = r.portfolio_uuid WHERE p.portfolio_id = 'scale-test'`),
    );
    const owing = rentals.filter((rental) => rental.balance > 0);
    expect(owing).toHaveLength(tenantsWhere((n) => n % 10 === 0));
    for (const rental of owing) {
      const entries = await ledgerEntries(db.manager, rental.uuid);
      expect(entries.map((entry) => [entry.kind, entry.periodTo])).toEqual([['RENT', rental.next]]);
      expect(rental.oldest).toBe(entries[0].dueOn);
    }
    const today: string = (await query(db, sql<{ today: string }>(`SELECT current_date::text AS today`)))[0].today;
    expect(rentals.every((rental) => rental.next > today)).toBe(true);
    expect(
      (
        await billRentals(
          db,
          rentals.map((rental) => rental.uuid),
          today,
          { postedOn: today, source: 'test' },
        )
      ).billed,
    ).toEqual([]);
  });
});

describe('seed demo --yes after delinquency ran', () => {
  const KEY = 'sk_demo_key_for_tests_0123456789';
  /** Columns that refer to a row of these tables: `<name>_uuid`, or `<role>_<name>_uuid` (`converted_rental_record_uuid`). */
  const REFERRED: Record<string, string> = {
    rental_record: 'rental_records',
    lead: 'leads',
    person: 'persons',
    facility: 'facilities',
    unit: 'units',
    unit_group: 'unit_groups',
    portfolio: 'portfolios',
  };

  /** Every row, in any table, whose uuid column refers to a rental, lead, person, facility, unit, unit group or portfolio that is gone. */
  const danglingReferences = async (): Promise<string[]> => {
    const columns = await query(
      db,
      sql<{ table: string; column: string }>(`SELECT c.table_name AS table, c.column_name AS column FROM information_schema.columns c
         JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
        WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' AND c.data_type = 'uuid'`),
    );
    const dangling: string[] = [];
    for (const { table, column } of columns) {
      const name = Object.keys(REFERRED).find((referred) => new RegExp(`^(.+_)?${referred}_uuid$`).test(column));
      if (name === undefined) continue;
      const [{ count }] = await query(
        db,
        sql<{ count: number }>(
          `SELECT count(*)::int AS count FROM "${table}" x WHERE x."${column}" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "${REFERRED[name]}" r WHERE r.uuid = x."${column}")`,
        ),
      );
      if (count > 0) dangling.push(`${table}.${column}: ${count}`);
    }
    return dangling;
  };

  /** What the delinquency scheduler and payments leave on a rental beyond what the seed writes. */
  const leftOn = async (rentalUuid: string): Promise<Record<string, number>> => {
    const [row] = await query(
      db,
      sql<Record<string, number>>(`SELECT (SELECT count(*)::int FROM delinquencies WHERE rental_record_uuid = $1) AS delinquencies,
              (SELECT count(*)::int FROM gate_code_suspensions WHERE rental_record_uuid = $1) AS suspensions,
              (SELECT count(*)::int FROM auctions WHERE rental_record_uuid = $1) AS auctions,
              (SELECT count(*)::int FROM payments WHERE rental_record_uuid = $1) AS payments`),
      [rentalUuid],
    );
    return row;
  };

  const ledgerOf = (rentalUuid: string): Promise<unknown[]> =>
    query(
      db,
      sql(`SELECT kind, amount_in_pennies AS amount, posted_on::text AS "postedOn", due_on::text AS "dueOn" FROM rental_ledger_entries
        WHERE rental_record_uuid = $1 ORDER BY seq`),
      [rentalUuid],
    );

  /** A payment as the api records it: its row, its ledger entry, its billing fact. */
  const pay = async (rentalUuid: string, amountInPennies: number): Promise<void> => {
    const [rental] = await query(
      db,
      sql<{ version: string; balance: number; today: string }>(
        `SELECT xmin::text AS version, balance_in_pennies AS balance, current_date::text AS today FROM rental_records WHERE uuid = $1`,
      ),
      [rentalUuid],
    );
    const written = await recordPayments(
      db,
      [
        {
          rentalRecordUuid: rentalUuid,
          portfolioId: 'demo',
          paymentUuid: randomUUID(),
          amountInPennies,
          paidOn: rental.today,
          version: rental.version,
          balanceInPennies: rental.balance,
        },
      ],
      'test',
    );
    expect(written).toEqual([rentalUuid]);
  };

  it('gives the fresh rentals only what the seed writes, and leaves no row referring to a rental (or lead, facility…) that is gone', async () => {
    await seedDemo(db, { whenExists: 'keep', apiKey: KEY, dataDir, log: () => undefined });
    const [{ uuid: seeded }] = await query(
      db,
      sql(
        `SELECT r.uuid FROM rental_records r JOIN portfolios p ON p.uuid = r.portfolio_uuid WHERE p.portfolio_id = 'demo' AND r.status = 'ACTIVE' ORDER BY r.uuid LIMIT 1`,
      ),
    );
    const asSeeded = await ledgerOf(seeded);
    // A rental opened since the seed on the same unit, with a random uuid as signing or a transfer gives it, and its gate code.
    const [copied] = await query(
      db,
      sql<ExistingRental>(`SELECT gen_random_uuid() AS uuid, portfolio_uuid AS "portfolioUuid", facility_uuid AS "facilityUuid", unit_uuid AS "unitUuid", unit_group_uuid AS "unitGroupUuid",
              person_uuid AS "personUuid", lead_uuid AS "leadUuid", rent_in_pennies AS "rentInPennies", start_date::text AS "startDate", next_due_date::text AS "nextDueDate",
              autopay_payment_method AS "autopayPaymentMethod", json_build_object('uuid', gen_random_uuid(), 'code', '000001') AS "gateCode",
              '[]'::json AS services, '[]'::json AS vehicles, '[]'::json AS "coverageEnrollments"
         FROM rental_records WHERE uuid = $1`),
      [seeded],
    );
    await db.transaction((manager) => importRentals(manager, [copied]));
    const opened = copied.uuid;
    const scale = async (): Promise<unknown> =>
      (
        await query(
          db,
          sql(`SELECT count(DISTINCT r.uuid)::int AS rentals, count(e.uuid)::int AS entries FROM rental_records r JOIN portfolios p ON p.uuid = r.portfolio_uuid
           LEFT JOIN rental_ledger_entries e ON e.rental_record_uuid = r.uuid WHERE p.portfolio_id = 'scale-test'`),
        )
      )[0];
    const scaleBefore = await scale();

    for (const rental of [seeded, opened]) {
      const { facility, today } = await bringToAuction(db, rental);
      await pay(rental, 1000);
      expect(await leftOn(rental)).toEqual({ delinquencies: 1, suspensions: 1, auctions: 1, payments: 1 });
      // The business day's bookkeeping, as the scheduler's runner records a facility's completed day.
      await query(
        db,
        sql(`INSERT INTO delinquency_runs (facility_uuid, business_date, started_at, completed_at) VALUES ($1, $2, now(), now()) ON CONFLICT DO NOTHING
            -- owner-bypass: the scheduler's row, an app the api cannot call`),
        [facility, today],
      );
    }

    // A notification sent since to one of the demo's leads, as the embedded notifier records it.
    const [notification] = await query(
      db,
      sql<{ uuid: string }>(`INSERT INTO notifications (portfolio_uuid, lead_uuid, person_uuid, channel, recipient, subject, body)
         SELECT l.portfolio_uuid, l.uuid, l.person_uuid, 'email', 'lead@example.com', 'Your unit', 'Reserved.' FROM leads l
          WHERE l.portfolio_uuid = $1 ORDER BY l.uuid LIMIT 1 RETURNING uuid`),
      [DEMO_PORTFOLIO_UUID],
    );

    await seedDemo(db, { whenExists: 'replace', apiKey: KEY, dataDir, log: () => undefined });

    expect(await leftOn(seeded)).toEqual({ delinquencies: 0, suspensions: 0, auctions: 0, payments: 0 });
    expect(await ledgerOf(seeded)).toEqual(asSeeded);
    expect(await query(db, sql('SELECT 1 FROM rental_records WHERE uuid = $1'), [opened])).toEqual([]);
    expect(await leftOn(opened)).toEqual({ delinquencies: 0, suspensions: 0, auctions: 0, payments: 0 });
    expect(await danglingReferences()).toEqual([]);
    expect(await query(db, sql('SELECT 1 FROM notifications WHERE uuid = $1'), [notification.uuid])).toEqual([]);
    // The scheduler's runs went with the demo's facilities: the new demo's business day runs again.
    expect(
      await query(
        db,
        sql(`SELECT r.business_date FROM delinquency_runs r JOIN facilities f ON f.uuid = r.facility_uuid JOIN portfolios p ON p.uuid = f.portfolio_uuid
          WHERE p.portfolio_id = 'demo'`),
      ),
    ).toEqual([]);
    // Another portfolio is untouched.
    expect(await scale()).toEqual(scaleBefore);
  });
});
