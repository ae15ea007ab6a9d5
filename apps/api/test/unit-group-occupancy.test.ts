import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { createDataSource, query, sql } from '@storage/persistence';
import { postEntries } from '@storage/rental-ledger';
import { createTestDatabase, type TestDatabase } from '@storage/testing';
import { saveUnit, saveUnitGroup } from '@storage/unit-occupancy';
import type { DataSource } from 'typeorm';
import { seedDemo } from '../src/seed/demo-seed';

/*
 * unit_group_occupancy (operation 7's counts) is kept by triggers: after any mix of inserts, updates and
 * deletes of units and rentals, in single rows or whole statements, it must equal counting from scratch.
 */
let database: TestDatabase;
let db: DataSource;
let dataDir: string;
beforeAll(async () => {
  database = await createTestDatabase();
  db = await createDataSource({ url: database.url, applicationName: 'occupancy-test' }).initialize();
  dataDir = await mkdtemp(path.join(tmpdir(), 'occupancy-test-'));
  await seedDemo(db, { whenExists: 'refuse', dataDir, log: () => undefined });
});
afterAll(async () => {
  await db.destroy();
  await database.drop();
  await rm(dataDir, { recursive: true, force: true });
});

interface Figures {
  unit_group_uuid: string;
  units: number;
  vacant_units: number;
  active_rentals: number;
  active_rent_in_pennies: number;
}

const counted = (): Promise<Figures[]> =>
  query(
    db,
    sql(`
    SELECT g.uuid AS unit_group_uuid,
           (SELECT count(*)::int FROM units u WHERE u.unit_group_uuid = g.uuid) AS units,
           (SELECT count(*)::int FROM units u WHERE u.unit_group_uuid = g.uuid AND u.status = 'vacant') AS vacant_units,
           (SELECT count(*)::int FROM rental_records r WHERE r.unit_group_uuid = g.uuid AND r.status = 'ACTIVE') AS active_rentals,
           (SELECT coalesce(sum(r.rent_in_pennies), 0)::int FROM rental_records r WHERE r.unit_group_uuid = g.uuid AND r.status = 'ACTIVE') AS active_rent_in_pennies
      FROM unit_groups g ORDER BY g.uuid`),
  );

const kept = (): Promise<Figures[]> =>
  query(
    db,
    sql(`
    SELECT g.uuid AS unit_group_uuid, coalesce(o.units, 0) AS units, coalesce(o.vacant_units, 0) AS vacant_units,
           coalesce(o.active_rentals, 0) AS active_rentals, coalesce(o.active_rent_in_pennies, 0)::int AS active_rent_in_pennies
      FROM unit_groups g LEFT JOIN unit_group_occupancy o ON o.unit_group_uuid = g.uuid ORDER BY g.uuid`),
  );

/** One change to units or rentals, picked at random: what lettings, move-outs, transfers, rent changes and seeds do. */
type Change = (groups: string[], pick: number) => Promise<unknown>;

const changes: Record<string, Change> = {
  'a unit is let or freed': () =>
    query(
      db,
      sql(`UPDATE units SET status = CASE status WHEN 'vacant' THEN 'occupied'::unit_status ELSE 'vacant' END
               WHERE uuid = (SELECT uuid FROM units ORDER BY md5(uuid::text || $1) LIMIT 1) -- owner-bypass: the triggers under any write, past the owners' rules`),
      [String(Math.random())],
    ),
  'a unit moves to another group': (groups, pick) =>
    query(
      db,
      sql(
        `UPDATE units SET unit_group_uuid = $1 WHERE uuid = (SELECT uuid FROM units ORDER BY md5(uuid::text || $2) LIMIT 1) -- owner-bypass: the triggers under any write, past the owners' rules`,
      ),
      [groups[pick % groups.length], String(pick)],
    ),
  'a rental moves out': (_groups, pick) =>
    query(
      db,
      sql(
        `UPDATE rental_records SET status = 'MOVED_OUT' WHERE uuid = (SELECT uuid FROM rental_records WHERE status = 'ACTIVE' ORDER BY md5(uuid::text || $1) LIMIT 1) -- owner-bypass: the triggers under any write, past the owners' rules`,
      ),
      [String(pick)],
    ),
  "a rental's rent changes": (_groups, pick) =>
    query(
      db,
      sql(
        `UPDATE rental_records SET rent_in_pennies = rent_in_pennies + $1 WHERE uuid = (SELECT uuid FROM rental_records ORDER BY md5(uuid::text || $2) LIMIT 1) -- owner-bypass: the triggers under any write, past the owners' rules`,
      ),
      [(pick % 500) + 1, String(pick)],
    ),
  'a rental transfers to another group': (groups, pick) =>
    query(
      db,
      sql(
        `UPDATE rental_records SET unit_group_uuid = $1 WHERE uuid = (SELECT uuid FROM rental_records ORDER BY md5(uuid::text || $2) LIMIT 1) -- owner-bypass: the triggers under any write, past the owners' rules`,
      ),
      [groups[pick % groups.length], String(pick)],
    ),
  "a rent changes while a letting holds its group's row": (_groups, pick) => rentChangeDuringLetting(pick, pick % 2 === 0 ? 'commit' : 'rollback'),
  'a balance changes (not counted)': async (_groups, pick) => {
    const [rental] = await query(db, sql<{ uuid: string }>('SELECT uuid FROM rental_records ORDER BY md5(uuid::text || $1) LIMIT 1'), [String(pick)]);
    if (rental)
      await db.transaction((manager) =>
        postEntries(manager, rental.uuid, [
          { kind: 'LATE_FEE', description: 'Late fee', amountInPennies: pick + 1, postedOn: '2025-01-01', dueOn: '2025-01-01' },
        ]),
      );
  },
  'units are added in one statement': (groups, pick) =>
    query(
      db,
      sql(`INSERT INTO units (uuid, facility_uuid, unit_group_uuid, name, status)
       SELECT gen_random_uuid(), g.facility_uuid, g.uuid, 'Added ' || i, (ARRAY['vacant', 'occupied'])[1 + i % 2]::unit_status
         FROM unit_groups g, generate_series(1, $2) i WHERE g.uuid = $1 -- owner-bypass: the triggers under any write, past the owners' rules`),
      [groups[pick % groups.length], (pick % 3) + 1],
    ),
  'rentals are copied in one statement': (_groups, pick) =>
    query(
      db,
      sql(`INSERT INTO rental_records (uuid, portfolio_uuid, facility_uuid, unit_uuid, unit_group_uuid, person_uuid, rent_in_pennies,
                                   balance_in_pennies, billing_day_of_month, next_due_date, start_date, status)
       SELECT gen_random_uuid(), portfolio_uuid, facility_uuid, unit_uuid, unit_group_uuid, person_uuid, rent_in_pennies + $1,
              0, billing_day_of_month, next_due_date, start_date, status
         FROM rental_records ORDER BY md5(uuid::text || $2) LIMIT 3 -- owner-bypass: the triggers under any write, past the owners' rules`),
      [pick % 100, String(pick)],
    ),
  'rentals are deleted in one statement': (_groups, pick) =>
    query(
      db,
      sql(`DELETE FROM rental_records WHERE uuid IN (SELECT uuid FROM rental_records WHERE lead_uuid IS NULL ORDER BY md5(uuid::text || $1) LIMIT 2)
               AND NOT EXISTS (SELECT 1 FROM delinquencies d WHERE d.rental_record_uuid = rental_records.uuid) -- owner-bypass: the triggers under any write, past the owners' rules`),
      [String(pick)],
    ).catch(ignoreReferenced),
  'units are deleted in one statement': (_groups, pick) =>
    query(
      db,
      sql(
        `DELETE FROM units WHERE name LIKE 'Added %' AND uuid IN (SELECT uuid FROM units WHERE name LIKE 'Added %' ORDER BY md5(uuid::text || $1) LIMIT 2) -- owner-bypass: the triggers under any write, past the owners' rules`,
      ),
      [String(pick)],
    ),
};

/**
 * A rent change of a rental while another transaction has let a unit of the same group and not yet ended (so
 * it holds the group's occupancy row); the letting then commits or rolls back. The rent change must not wait
 * for it: lock_timeout fails it if it does.
 */
async function rentChangeDuringLetting(pick: number, letting: 'commit' | 'rollback'): Promise<{ rental: string; group: string }> {
  const [chosen] = await query(
    db,
    sql<{ rental: string; unit: string; group: string }>(`SELECT r.uuid AS rental, u.uuid AS unit, r.unit_group_uuid AS group
       FROM rental_records r JOIN units u ON u.unit_group_uuid = r.unit_group_uuid
      WHERE r.status = 'ACTIVE' ORDER BY md5(r.uuid::text || u.uuid::text || $1) LIMIT 1`),
    [String(pick)],
  );
  if (chosen === undefined) throw new Error('the demo seed has active rentals');
  const holder = db.createQueryRunner();
  await holder.startTransaction();
  try {
    await query(
      holder,
      sql(
        `UPDATE units SET status = CASE status WHEN 'vacant' THEN 'occupied'::unit_status ELSE 'vacant' END WHERE uuid = $1 -- owner-bypass: the triggers under any write, past the owners' rules`,
      ),
      [chosen.unit],
    );
    await db.transaction(async (rentChange) => {
      await query(rentChange, sql(`SET LOCAL lock_timeout = '1s'`));
      await query(
        rentChange,
        sql(
          `UPDATE rental_records SET rent_in_pennies = rent_in_pennies + $2 WHERE uuid = $1 -- owner-bypass: the triggers under any write, past the owners' rules`,
        ),
        [chosen.rental, (pick % 300) + 1],
      );
    });
  } finally {
    await (letting === 'commit' ? holder.commitTransaction() : holder.rollbackTransaction());
    await holder.release();
  }
  return { rental: chosen.rental, group: chosen.group };
}

/** Rows other tables still point at cannot be deleted; that change then changes nothing, which is fine here. */
function ignoreReferenced(error: unknown): void {
  if ((error as { code?: string }).code !== '23503') throw error;
}

describe('unit group occupancy', () => {
  it('starts equal to the counts of the seeded units and rentals', async () => {
    const figures = await counted();
    expect(figures.some((group) => group.active_rentals > 0 && group.vacant_units > 0)).toBe(true);
    expect(await kept()).toEqual(figures);
  });

  it('stays equal to counting from scratch through any sequence of changes', async () => {
    const groups = (await query(db, sql<{ uuid: string }>('SELECT uuid FROM unit_groups ORDER BY uuid'))).map((row) => row.uuid);
    const names = Object.keys(changes);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.constantFrom(...names), fc.nat(10_000)), { minLength: 1, maxLength: 12 }), async (steps) => {
        for (const [name, pick] of steps) await changes[name]?.(groups, pick);
        expect(await kept()).toEqual(await counted());
      }),
      { numRuns: 25 },
    );
  });

  it('counts a transaction that rolls back not at all', async () => {
    const before = await kept();
    const runner = db.createQueryRunner();
    await runner.startTransaction();
    await query(
      runner,
      sql(`UPDATE units SET status = 'occupied' WHERE status = 'vacant' -- owner-bypass: the triggers under any write, past the owners' rules`),
    );
    await query(
      runner,
      sql(
        `UPDATE rental_records SET status = 'MOVED_OUT', rent_in_pennies = 1 WHERE status = 'ACTIVE' -- owner-bypass: the triggers under any write, past the owners' rules`,
      ),
    );
    await runner.rollbackTransaction();
    await runner.release();
    expect(await kept()).toEqual(before);
  });

  it("lets a rent change through while a letting holds its group's row, and adds its difference once", async () => {
    const { rental, group } = await rentChangeDuringLetting(1, 'commit');
    expect(await kept()).toEqual(await counted());
    // The group's next rent change that finds its row free adds what was left pending.
    await query(
      db,
      sql(
        `UPDATE rental_records SET rent_in_pennies = rent_in_pennies - 1 WHERE uuid = $1 -- owner-bypass: the triggers under any write, past the owners' rules`,
      ),
      [rental],
    );
    expect(await query(db, sql('SELECT count(*)::int AS pending FROM unit_group_rent_changes WHERE unit_group_uuid = $1'), [group])).toEqual([{ pending: 0 }]);
    expect(await kept()).toEqual(await counted());
  });

  it('counts a unit group created after the migration from its first unit', async () => {
    const [group] = await query(
      db,
      sql<{ uuid: string; facility_uuid: string; size_and_type_group_uuid: string; rate_plan_uuid: string }>(
        'SELECT uuid, facility_uuid, size_and_type_group_uuid, rate_plan_uuid FROM unit_groups LIMIT 1',
      ),
    );
    if (group === undefined) throw new Error('the demo seed has unit groups');
    const uuid = randomUUID();
    await db.transaction(async (manager) => {
      await saveUnitGroup(manager, group.facility_uuid, uuid, {
        sizeAndTypeGroupUuid: group.size_and_type_group_uuid,
        description: 'New group',
        tierLevel: 1,
        ratePlanUuid: group.rate_plan_uuid,
        baseStreetRateInPennies: 100,
        baseWebRateInPennies: 90,
        canShowUnitGroupTenantPortal: true,
      });
      await saveUnit(manager, group.facility_uuid, randomUUID(), { unitGroupUuid: uuid, name: 'N1', floor: '1' });
    });
    expect((await kept()).find((figures) => figures.unit_group_uuid === uuid)).toEqual({
      unit_group_uuid: uuid,
      units: 1,
      vacant_units: 1,
      active_rentals: 0,
      active_rent_in_pennies: 0,
    });
  });
});
