import { randomBytes } from 'node:crypto';
import { adminQuery, ENV_ADMIN_URL, ENV_TEMPLATE, withDatabase } from './test-server';

export interface TestDatabase {
  url: string;
  name: string;
  drop: () => Promise<void>;
}

/** An isolated, migrated database for one test file, copied from the run's template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = process.env[ENV_ADMIN_URL];
  const template = process.env[ENV_TEMPLATE];
  if (!adminUrl || !template) {
    throw new Error('No test database server: add the @storage/testing globalSetup to this jest config.');
  }
  const name = `test_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${name} TEMPLATE ${template}`);
  return {
    url: withDatabase(adminUrl, name),
    name,
    drop: () => adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}
