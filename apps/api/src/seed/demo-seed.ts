import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DataSource, EntityManager } from 'typeorm';
import { postEntries } from '@storage/rental-ledger';
import { importRentals } from '@storage/rentals';
import { todayIn } from '../common';
import { createApiKey } from '../auth/create-api-key';
import { describe, writePortfolio } from '../onboarding/import/import-portfolio';
import { DEMO_PORTFOLIO_ID, demoPortfolio } from './demo-data';
import { insertShoppers } from './demo-shoppers';
import { query, sql } from '@storage/persistence';

export const DEMO_API_KEY_FILE = 'demo-api-key';

export interface DemoSeedOptions {
  /**
   * What to do when the demo portfolio exists: keep it and seed nothing (what `npm start` does on every boot),
   * replace it (everything created in it since is lost), or refuse with `DemoExists`.
   */
  whenExists: 'keep' | 'replace' | 'refuse';
  /** The demo key to use (DEMO_API_KEY); a random one otherwise. */
  apiKey?: string | undefined;
  /** Where `demo-api-key` is written, so the launcher can show the key on later boots. */
  dataDir: string;
  log: (line: string) => void;
}

/** Replacing the demo would lose what was created in it: the caller must say so. */
export class DemoExists extends Error {
  constructor() {
    super(
      `The demo portfolio "${DEMO_PORTFOLIO_ID}" exists. \`seed demo --yes\` replaces it (the leads, rentals and lease links created in it since are lost); \`seed demo --if-empty\` keeps it.`,
    );
  }
}

/** Seeds the demo portfolio in one transaction; an existing one is kept, replaced or refused (`whenExists`). */
export async function seedDemo(dataSource: DataSource, options: DemoSeedOptions): Promise<{ seeded: boolean; apiKey: string | null }> {
  const exists = (await query(dataSource, sql<unknown>('SELECT 1 FROM portfolios WHERE portfolio_id = $1'), [DEMO_PORTFOLIO_ID])).length > 0;
  if (exists && options.whenExists === 'refuse') throw new DemoExists();
  if (exists && options.whenExists === 'keep') {
    // A key given by the environment still has to work against an existing demo.
    if (options.apiKey !== undefined) await createApiKey(dataSource, { portfolioIds: [DEMO_PORTFOLIO_ID], scope: 'write', label: 'demo', key: options.apiKey });
    options.log('The demo portfolio exists; nothing seeded.');
    return { seeded: false, apiKey: null };
  }
  const demo = demoPortfolio(todayIn('UTC'));
  const records = await dataSource.transaction(async (db) => {
    // Leads name the rentals they converted to, written after them: the foreign keys are checked at commit.
    await query(db, sql('SET CONSTRAINTS ALL DEFERRED'));
    if (exists) await removeDemo(db);
    // Each part through its owner: the portfolio as onboarding imports it, the tenancies as @storage/rentals brings
    // existing ones in (letting their units), their ledgers through @storage/rental-ledger.
    const imported = await writePortfolio(db, demo.portfolio, () => undefined);
    await insertShoppers(db, demo.shoppers);
    await importRentals(db, demo.rentals);
    for (const { rentalRecordUuid, entries } of demo.ledgers) await postEntries(db, rentalRecordUuid, entries);
    return imported;
  });
  const { key } = await createApiKey(dataSource, { portfolioIds: [DEMO_PORTFOLIO_ID], scope: 'write', label: 'demo', key: options.apiKey });
  await mkdir(options.dataDir, { recursive: true });
  const file = path.join(options.dataDir, DEMO_API_KEY_FILE);
  await writeFile(file, `${key}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  const entries = demo.ledgers.reduce((sum, ledger) => sum + ledger.entries.length, 0);
  const { persons, leads, leases } = demo.shoppers;
  options.log(
    `Seeded portfolio "${DEMO_PORTFOLIO_ID}": ${demo.portfolio.facilities.length} facilities (${describe(records)} records), ` +
      `${persons.length} persons, ${leads.length} leads, ${leases.length} lease, ${demo.rentals.length} rentals, ${entries} ledger entries.`,
  );
  options.log(`Demo API key (write, portfolio ${DEMO_PORTFOLIO_ID}): ${key}  (also in ${file})`);
  return { seeded: true, apiKey: key };
}

interface UuidColumns {
  table: string;
  /** Its `uuid` key, when it has one: what rows referring to its rows refer to. */
  hasKey: boolean;
  /** Its other uuid columns: references to rows of other tables (`rental_record_uuid`, `converted_rental_record_uuid`…). */
  references: string[];
}

const quoted = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * Deletes everything of the demo portfolio, whatever table holds it: derived from the catalog, not from a list a new
 * table could be missing from. The demo's rows are the portfolio's and, transitively, every row with a uuid column
 * referring to one of them (uuids are unique across tables, so a column holding a demo row's uuid refers to it).
 * Tables are emptied of them in the order their rows were found, parents first: the ledger's entries go with their
 * rental (by its foreign key; the append-only ledger refuses any other delete). Keys (`api_keys`) and webhook
 * subscriptions name portfolios by arrays or text, not by a uuid column, and stay, as before.
 */
async function removeDemo(db: EntityManager): Promise<void> {
  const columns = await query(
    db,
    sql<{ table: string; column: string }>(`SELECT c.table_name AS table, c.column_name AS column
       FROM information_schema.columns c JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
      WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' AND c.data_type = 'uuid'
      ORDER BY c.table_name, c.ordinal_position`),
  );
  const tables = new Map<string, UuidColumns>();
  for (const { table, column } of columns) {
    const entry = tables.get(table) ?? { table, hasKey: false, references: [] };
    if (column === 'uuid') entry.hasKey = true;
    else entry.references.push(column);
    tables.set(table, entry);
  }
  await query(db, sql('CREATE TEMPORARY TABLE demo_rows (uuid uuid PRIMARY KEY, found_in integer NOT NULL) ON COMMIT DROP'));
  await query(db, sql(`INSERT INTO demo_rows SELECT uuid, 0 FROM portfolios WHERE portfolio_id = $1`), [DEMO_PORTFOLIO_ID]);
  // Rows found in a round refer to rows found in the one before; each table's first round orders the deletes.
  const firstFound = new Map<string, number>([['portfolios', 0]]);
  for (let round = 1; ; round++) {
    let found = 0;
    for (const { table, hasKey, references } of tables.values()) {
      if (!hasKey || references.length === 0) continue;
      const refersToLastRound = references.map((column) => `${quoted(column)} IN (SELECT uuid FROM demo_rows WHERE found_in = $1)`).join(' OR ');
      const added = await query(
        db,
        sql<unknown>(`INSERT INTO demo_rows SELECT uuid, $1 + 1 FROM ${quoted(table)} WHERE ${refersToLastRound} ON CONFLICT DO NOTHING RETURNING uuid`),
        [round - 1],
      );
      if (added.length > 0 && !firstFound.has(table)) firstFound.set(table, round);
      found += added.length;
    }
    if (found === 0) break;
  }
  // Tables whose rows are found by no round (no key of their own: `delinquencies`, `unit_group_amenities`…) go last.
  const roundOf = (table: string): number => firstFound.get(table) ?? Number.MAX_SAFE_INTEGER;
  const order = [...tables.values()].sort((a, b) => roundOf(a.table) - roundOf(b.table));
  for (const { table, hasKey, references } of order) {
    const demoColumns = [...(hasKey ? ['uuid'] : []), ...references];
    await query(db, sql(`DELETE FROM ${quoted(table)} WHERE ${demoColumns.map((column) => `${quoted(column)} IN (SELECT uuid FROM demo_rows)`).join(' OR ')}`));
  }
}
