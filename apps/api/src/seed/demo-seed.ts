import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DataSource, EntityManager } from 'typeorm';
import { todayIn } from '../common';
import { createApiKey } from '../auth/create-api-key';
import { DEMO_PORTFOLIO_ID, demoTables } from './demo-data';
import { insertRows } from './insert-rows';

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
    super(`The demo portfolio "${DEMO_PORTFOLIO_ID}" exists. \`seed demo --yes\` replaces it (the leads, rentals and lease links created in it since are lost); \`seed demo --if-empty\` keeps it.`);
  }
}

/** Seeds the demo portfolio in one transaction; an existing one is kept, replaced or refused (`whenExists`). */
export async function seedDemo(dataSource: DataSource, options: DemoSeedOptions): Promise<{ seeded: boolean; apiKey: string | null }> {
  const exists = (await dataSource.query<unknown[]>('SELECT 1 FROM portfolios WHERE portfolio_id = $1', [DEMO_PORTFOLIO_ID])).length > 0;
  if (exists && options.whenExists === 'refuse') throw new DemoExists();
  if (exists && options.whenExists === 'keep') {
    // A key given by the environment still has to work against an existing demo.
    if (options.apiKey !== undefined) await createApiKey(dataSource, { portfolioIds: [DEMO_PORTFOLIO_ID], scope: 'write', label: 'demo', key: options.apiKey });
    options.log('The demo portfolio exists; nothing seeded.');
    return { seeded: false, apiKey: null };
  }
  const tables = demoTables(todayIn('UTC'));
  await dataSource.transaction(async (db) => {
    if (exists) await removeDemo(db);
    for (const [table, rows] of Object.entries(tables)) await insertRows(db, table, rows);
  });
  const { key } = await createApiKey(dataSource, { portfolioIds: [DEMO_PORTFOLIO_ID], scope: 'write', label: 'demo', key: options.apiKey });
  await mkdir(options.dataDir, { recursive: true });
  const file = path.join(options.dataDir, DEMO_API_KEY_FILE);
  await writeFile(file, `${key}\n`, { mode: 0o600 });
  await chmod(file, 0o600);
  const counts = Object.entries(tables).map(([table, rows]) => `${table} ${rows.length}`).join(', ');
  options.log(`Seeded portfolio "${DEMO_PORTFOLIO_ID}": ${counts}.`);
  options.log(`Demo API key (write, portfolio ${DEMO_PORTFOLIO_ID}): ${key}  (also in ${file})`);
  return { seeded: true, apiKey: key };
}

/** Deletes everything of the demo portfolio, child tables first. */
async function removeDemo(db: EntityManager): Promise<void> {
  const portfolio = `(SELECT uuid FROM portfolios WHERE portfolio_id = '${DEMO_PORTFOLIO_ID}')`;
  const facilities = `(SELECT uuid FROM facilities WHERE portfolio_uuid = ${portfolio})`;
  const rentals = `(SELECT uuid FROM rental_records WHERE portfolio_uuid = ${portfolio})`;
  const leads = `(SELECT uuid FROM leads WHERE portfolio_uuid = ${portfolio})`;
  const statements = [
    `DELETE FROM notes WHERE lead_uuid IN ${leads}`,
    `DELETE FROM leases WHERE lead_uuid IN ${leads}`,
    `DELETE FROM rental_services WHERE rental_record_uuid IN ${rentals}`,
    `DELETE FROM rental_promotions WHERE rental_record_uuid IN ${rentals}`,
    `DELETE FROM vehicles WHERE facility_uuid IN ${facilities}`,
    `DELETE FROM coverage_enrollments WHERE facility_uuid IN ${facilities}`,
    `DELETE FROM gate_codes WHERE facility_uuid IN ${facilities}`,
    `DELETE FROM tenant_verification_codes WHERE facility_uuid IN ${facilities}`,
    `DELETE FROM unit_group_amenities WHERE unit_group_uuid IN (SELECT uuid FROM unit_groups WHERE facility_uuid IN ${facilities})`,
    `DELETE FROM units WHERE facility_uuid IN ${facilities}`,
    `DELETE FROM unit_groups WHERE facility_uuid IN ${facilities}`,
    `DELETE FROM size_and_type_groups WHERE facility_uuid IN ${facilities}`,
    `DELETE FROM coverages WHERE facility_uuid IN ${facilities}`,
    `DELETE FROM promotions WHERE facility_uuid IN ${facilities}`,
    `DELETE FROM rental_records WHERE portfolio_uuid = ${portfolio}`,
    `DELETE FROM leads WHERE portfolio_uuid = ${portfolio}`,
    ...['notifications', 'persons', 'facilities', 'lead_sources', 'lead_marketing_sources', 'item_types', 'rate_plans', 'amenities', 'unit_types'].map(
      (table) => `DELETE FROM ${table} WHERE portfolio_uuid = ${portfolio}`,
    ),
    `DELETE FROM portfolios WHERE portfolio_id = '${DEMO_PORTFOLIO_ID}'`,
  ];
  for (const statement of statements) await db.query(statement);
}
