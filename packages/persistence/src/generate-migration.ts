/**
 * Development tool: writes a migration with the difference between the entities of every workspace
 * (files named `*.entity.js` in their dist/) and the schema the committed migrations produce.
 * Usage: npm run migration:generate -w @storage/persistence -- <Name>
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { createDataSource } from './data-source';
import { locateDatabase } from './database-location';
import { migrate } from './migrate';

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const entityGlobs = ['apps/*/dist/**/*.entity.js', 'packages/*/dist/**/*.entity.js'].map((glob) => path.join(repoRoot, glob));

async function main(name: string | undefined): Promise<void> {
  if (!name || !/^[A-Z][A-Za-z0-9]+$/.test(name)) throw new Error('usage: migration:generate <PascalCaseName>');
  const database = await locateDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: path.join(repoRoot, '.data') });
  const scratch = 'storage_codegen';
  const admin = new Client({ connectionString: database.url });
  admin.on('error', () => undefined); // its query in flight reports a lost connection
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${scratch}`);
  await admin.end();
  const scratchUrl = new URL(database.url);
  scratchUrl.pathname = `/${scratch}`;
  try {
    await migrate(scratchUrl.toString());
    const dataSource = await createDataSource({ url: scratchUrl.toString(), entities: entityGlobs, applicationName: 'codegen' }).initialize();
    const sql = await dataSource.driver.createSchemaBuilder().log();
    await dataSource.destroy();
    if (sql.upQueries.length === 0) {
      process.stdout.write('No changes: the entities match the migrations.\n');
      return;
    }
    const timestamp = Date.now();
    const quote = (query: string) => '`' + query.replace(/\\/g, '\\\\').replace(/`/g, '\\`') + '`';
    const lines = (queries: { query: string }[]) => queries.map((q) => `    await queryRunner.query(${quote(q.query)});`).join('\n');
    const file = path.join(repoRoot, 'packages/persistence/src/migrations', `${timestamp}-${name}.ts`);
    writeFileSync(
      file,
      `import type { MigrationInterface, QueryRunner } from 'typeorm';\n\n` +
        `export class ${name}${timestamp} implements MigrationInterface {\n` +
        `  name = '${name}${timestamp}';\n\n` +
        `  async up(queryRunner: QueryRunner): Promise<void> {\n${lines(sql.upQueries)}\n  }\n\n` +
        `  async down(queryRunner: QueryRunner): Promise<void> {\n${lines([...sql.downQueries].reverse())}\n  }\n}\n`,
    );
    process.stdout.write(`Wrote ${path.relative(repoRoot, file)}\n`);
  } finally {
    await database.release();
  }
}

main(process.argv[2]).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
