import { existsSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DataSource } from 'typeorm';
import { postEntries } from '@storage/rental-ledger';
import { importRentals } from '@storage/rentals';
import { todayIn } from '../common';
import { createApiKey } from '../auth/create-api-key';
import { describe, writePortfolio } from '../onboarding/import/import-portfolio';
import { DEMO_PORTFOLIO_ID, demoPortfolio } from './demo-data';
import { removePortfolio } from './demo-removal';
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
  const exists = (await query(dataSource, sql<unknown, [string]>('SELECT 1 FROM portfolios WHERE portfolio_id = $1'), [DEMO_PORTFOLIO_ID])).length > 0;
  if (exists && options.whenExists === 'refuse') throw new DemoExists();
  if (exists && options.whenExists === 'keep') {
    // A key given by the environment still has to work against an existing demo.
    if (options.apiKey !== undefined) await createApiKey(dataSource, { portfolioIds: [DEMO_PORTFOLIO_ID], scope: 'write', label: 'demo', key: options.apiKey });
    options.log('The demo portfolio exists; nothing seeded.');
    if (options.apiKey !== undefined || existsSync(keyFile(options))) return { seeded: false, apiKey: null };
    // A first start stopped between the demo's commit and its key file (or the file deleted): the banner needs a key.
    const apiKey = await issueDemoKey(dataSource, options);
    options.log(`Its key file was missing: a new demo API key (write, portfolio ${DEMO_PORTFOLIO_ID}): ${apiKey}  (in ${keyFile(options)})`);
    return { seeded: false, apiKey };
  }
  const demo = demoPortfolio(todayIn('UTC'));
  const records = await dataSource.transaction(async (db) => {
    // Leads name the rentals they converted to, written after them, and the demo replaced is removed table by table:
    // the foreign keys are checked at commit.
    await query(db, sql('SET CONSTRAINTS ALL DEFERRED'));
    if (exists) await removePortfolio(db, DEMO_PORTFOLIO_ID);
    // Each part through its owner: the portfolio as onboarding imports it, the tenancies as @storage/rentals brings
    // existing ones in (letting their units), their ledgers through @storage/rental-ledger.
    const imported = await writePortfolio(db, demo.portfolio, () => undefined);
    await insertShoppers(db, demo.shoppers);
    await importRentals(db, demo.rentals);
    for (const { rentalRecordUuid, entries } of demo.ledgers) await postEntries(db, rentalRecordUuid, entries);
    return imported;
  });
  const key = await issueDemoKey(dataSource, options);
  const entries = demo.ledgers.reduce((sum, ledger) => sum + ledger.entries.length, 0);
  const { persons, leads, leases } = demo.shoppers;
  options.log(
    `Seeded portfolio "${DEMO_PORTFOLIO_ID}": ${demo.portfolio.facilities.length} facilities (${describe(records)} records), ` +
      `${persons.length} persons, ${leads.length} leads, ${leases.length} lease, ${demo.rentals.length} rentals, ${entries} ledger entries.`,
  );
  options.log(`Demo API key (write, portfolio ${DEMO_PORTFOLIO_ID}): ${key}  (also in ${keyFile(options)})`);
  return { seeded: true, apiKey: key };
}

const keyFile = (options: DemoSeedOptions): string => path.join(options.dataDir, DEMO_API_KEY_FILE);

/** A write key to the demo (DEMO_API_KEY, or a new one), kept in `<dataDir>/demo-api-key` (mode 600) for the banner. */
async function issueDemoKey(dataSource: DataSource, options: DemoSeedOptions): Promise<string> {
  const { key } = await createApiKey(dataSource, { portfolioIds: [DEMO_PORTFOLIO_ID], scope: 'write', label: 'demo', key: options.apiKey });
  await mkdir(options.dataDir, { recursive: true });
  await writeFile(keyFile(options), `${key}\n`, { mode: 0o600 });
  await chmod(keyFile(options), 0o600);
  return key;
}
