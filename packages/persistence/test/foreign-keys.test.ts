import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
// The compiled package: migrations are found as .js beside its data source.
import { freePort, createDataSource, migrate, query, type RunningEmbeddedPostgres, sql, startEmbeddedPostgres } from '@storage/persistence';

describe('ForeignKeys migration on a database that holds orphans', () => {
  let dataDir: string;
  let server: RunningEmbeddedPostgres;
  let db: Client;
  let url: string;
  const log: string[] = [];
  const ids = {
    portfolio: randomUUID(),
    facility: randomUUID(),
    unitType: randomUUID(),
    sizeGroup: randomUUID(),
    ratePlan: randomUUID(),
    unitGroup: randomUUID(),
    unit: randomUUID(),
    person: randomUUID(),
    rental: randomUUID(),
    orphanRental: randomUUID(),
    orphanServiceRental: randomUUID(),
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'storage-fk-'));
    server = await startEmbeddedPostgres({ dataDir, port: await freePort(), ephemeral: true });
    url = server.url();
    await migrate(url);
    // Back to the migration before ForeignKeys (undoing the later ones first): the schema an existing database had.
    const dataSource = await createDataSource({ url, applicationName: 'fk-test' }).initialize();
    const lastApplied = async (): Promise<string> =>
      (await query(dataSource, sql<{ name: string }>('SELECT name FROM schema_migrations ORDER BY id DESC LIMIT 1')))[0].name;
    while ((await lastApplied()) !== 'ForeignKeys1795330001600') await dataSource.undoLastMigration({ transaction: 'each' });
    await dataSource.undoLastMigration({ transaction: 'each' });
    await dataSource.destroy();

    db = new Client({ connectionString: url });
    await db.connect();
    // A whole rental with its parents, and orphans as old demo re-seeds left them.
    await query(db, sql(`INSERT INTO portfolios (uuid, portfolio_id, name) VALUES ($1, 'fk', 'FK')`), [ids.portfolio]);
    await query(
      db,
      sql(`INSERT INTO facilities (uuid, portfolio_uuid, name, address_line1, city, state, zip, phone, operating_hours, time_zone)
       VALUES ($1, $2, 'F', '1 Main St', 'Austin', 'TX', '78701', '5125550100', '{}', 'America/Chicago')`),
      [ids.facility, ids.portfolio],
    );
    await query(db, sql(`INSERT INTO unit_types (uuid, portfolio_uuid, description) VALUES ($1, $2, 'T')`), [ids.unitType, ids.portfolio]);
    await query(db, sql(`INSERT INTO size_and_type_groups (uuid, facility_uuid, unit_type_uuid, length, width, height) VALUES ($1, $2, $3, 10, 10, 8)`), [
      ids.sizeGroup,
      ids.facility,
      ids.unitType,
    ]);
    await query(db, sql(`INSERT INTO rate_plans (uuid, portfolio_uuid, name, occupancy_bands) VALUES ($1, $2, 'P', '[]')`), [ids.ratePlan, ids.portfolio]);
    await query(
      db,
      sql(`INSERT INTO unit_groups (uuid, facility_uuid, size_and_type_group_uuid, description, rate_plan_uuid, base_street_rate_in_pennies,
                                base_web_rate_in_pennies, current_street_rate_in_pennies, current_web_rate_in_pennies)
       VALUES ($1, $2, $3, 'G', $4, 100, 100, 100, 100)`),
      [ids.unitGroup, ids.facility, ids.sizeGroup, ids.ratePlan],
    );
    await query(db, sql(`INSERT INTO units (uuid, facility_uuid, unit_group_uuid, name, status) VALUES ($1, $2, $3, 'A-1', 'occupied')`), [
      ids.unit,
      ids.facility,
      ids.unitGroup,
    ]);
    await query(
      db,
      sql(
        `INSERT INTO persons (uuid, portfolio_uuid, first_name, last_name, email, phone, is_sms_enrolled) VALUES ($1, $2, 'A', 'L', 'a@example.com', '5125550101', false)`,
      ),
      [ids.person, ids.portfolio],
    );
    const insertRental = (uuid: string, unit: string): Promise<unknown> =>
      query(
        db,
        sql(`INSERT INTO rental_records (uuid, portfolio_uuid, facility_uuid, unit_uuid, unit_group_uuid, person_uuid, rent_in_pennies,
                                     billing_day_of_month, next_due_date, start_date)
         VALUES ($1, $2, $3, $4, $5, $6, 10000, 15, '2026-04-15', '2026-03-15')`),
        [uuid, ids.portfolio, ids.facility, unit, ids.unitGroup, ids.person],
      );
    await insertRental(ids.rental, ids.unit);
    await insertRental(ids.orphanRental, randomUUID()); // its unit is gone
    await query(db, sql(`INSERT INTO gate_codes (facility_uuid, rental_record_uuid, code) VALUES ($1, $2, '1234')`), [ids.facility, ids.rental]);
    await query(db, sql(`INSERT INTO gate_codes (facility_uuid, rental_record_uuid, code) VALUES ($1, $2, '5678')`), [ids.facility, ids.orphanServiceRental]);

    await migrate(url, (line) => log.push(line));
  });

  afterAll(async () => {
    await db?.end();
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const validated = async (name: string): Promise<boolean> => {
    const rows = await query(db, sql<{ convalidated: boolean }>('SELECT convalidated FROM pg_constraint WHERE conname = $1'), [name]);
    expect(rows).toHaveLength(1);
    return rows[0].convalidated;
  };

  it('does not fail, deletes nothing, and says which keys it left unvalidated and why', async () => {
    expect(log).toContain('applied ForeignKeys1795330001600');
    expect(log.filter((line) => line.includes('refer by'))).toEqual([
      expect.stringMatching(
        /^ForeignKeys: 1 row\(s\) of rental_records refer by unit_uuid to no row of units; .*VALIDATE CONSTRAINT "rental_records_unit_uuid_fkey"$/,
      ),
      expect.stringMatching(/^ForeignKeys: 1 row\(s\) of gate_codes refer by rental_record_uuid to no row of rental_records; /),
    ]);
    expect(log).toContainEqual(expect.stringMatching(/2 left NOT VALID \(orphans, see above\), nothing deleted$/));
    const rows = await query(db, sql<{ n: number }>(`SELECT (SELECT count(*) FROM rental_records) + (SELECT count(*) FROM gate_codes) AS n`));
    expect(Number(rows[0].n)).toBe(4);
    expect(await validated('rental_records_unit_uuid_fkey')).toBe(false);
    expect(await validated('gate_codes_rental_record_uuid_fkey')).toBe(false);
    expect(await validated('rental_records_person_uuid_fkey')).toBe(true);
  });

  it('enforces even the unvalidated keys for new rows', async () => {
    await expect(
      query(db, sql(`INSERT INTO gate_codes (facility_uuid, rental_record_uuid, code) VALUES ($1, $2, '9999')`), [ids.facility, randomUUID()]),
    ).rejects.toMatchObject({ code: '23503' });
  });

  it('keeps history: a unit with a rental is not deleted', async () => {
    await expect(query(db, sql('DELETE FROM units WHERE uuid = $1'), [ids.unit])).rejects.toMatchObject({ code: '23503' });
  });

  it("deletes a rental's parts with it, and lets one transaction delete a whole tree in any order", async () => {
    await query(db, sql('BEGIN'));
    await query(db, sql('SET CONSTRAINTS ALL DEFERRED'));
    await query(db, sql('DELETE FROM portfolios WHERE uuid = $1'), [ids.portfolio]);
    await query(db, sql('DELETE FROM rental_records WHERE uuid = $1'), [ids.rental]);
    const rows = await query(db, sql('SELECT 1 FROM gate_codes WHERE rental_record_uuid = $1'), [ids.rental]);
    expect(rows).toEqual([]);
    await query(db, sql('ROLLBACK'));
  });
});
