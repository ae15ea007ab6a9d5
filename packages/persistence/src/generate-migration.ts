/**
 * Development tool: writes a migration with the difference between the entities of every workspace
 * (files named `*.entity.js` in their dist/) and the schema the committed migrations produce, or says there is none.
 * Usage: npm run migration:generate -w @storage/persistence -- <Name>
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client } from 'pg';
import { locateDatabase } from './database-location';
import { schemaDifference, type SchemaStatement } from './schema-difference';
import { query } from './query';
import { sql } from './sql';

const repoRoot = path.resolve(__dirname, '..', '..', '..');

async function main(name: string | undefined): Promise<void> {
  if (!name || !/^[A-Z][A-Za-z0-9]+$/.test(name)) throw new Error('usage: migration:generate <PascalCaseName>');
  const database = await locateDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: path.join(repoRoot, '.data') });
  const scratch = 'storage_codegen';
  const admin = new Client({ connectionString: database.url });
  admin.on('error', () => undefined); // its query in flight reports a lost connection
  await admin.connect();
  await query(admin, sql(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`));
  await query(admin, sql(`CREATE DATABASE ${scratch}`));
  await admin.end();
  const scratchUrl = new URL(database.url);
  scratchUrl.pathname = `/${scratch}`;
  try {
    const difference = await schemaDifference(scratchUrl.toString());
    if (difference.up.length === 0) {
      process.stdout.write('No changes: the entities match the migrations.\n');
      return;
    }
    const timestamp = Date.now();
    const quote = (query: string) => '`' + query.replace(/\\/g, '\\\\').replace(/`/g, '\\`') + '`';
    const lines = (queries: SchemaStatement[]) => queries.map((q) => `    await queryRunner.query(${quote(q.query)});`).join('\n');
    const file = path.join(repoRoot, 'packages/persistence/src/migrations', `${timestamp}-${name}.ts`);
    writeFileSync(
      file,
      `import type { MigrationInterface, QueryRunner } from 'typeorm';\n\n` +
        `export class ${name}${timestamp} implements MigrationInterface {\n` +
        `  name = '${name}${timestamp}';\n\n` +
        `  async up(queryRunner: QueryRunner): Promise<void> {\n${lines(difference.up)}\n  }\n\n` +
        `  async down(queryRunner: QueryRunner): Promise<void> {\n${lines([...difference.down].reverse())}\n  }\n}\n`,
    );
    listMigration(path.dirname(file), `${timestamp}-${name}`, `${name}${timestamp}`);
    process.stdout.write(`Wrote ${path.relative(repoRoot, file)} and listed it in migrations/index.ts\n`);
  } finally {
    await database.release();
  }
}

main(process.argv[2]).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

/** Adds the migration to the ordered list the data source runs (`migrations/index.ts`), last. */
function listMigration(directory: string, file: string, className: string): void {
  const index = path.join(directory, 'index.ts');
  const source = readFileSync(index, 'utf8');
  const withImport = source.replace(/\n\n\/\*\*/, `\nimport { ${className} } from './${file}';\n\n/**`);
  writeFileSync(index, withImport.replace(/\n\];\n$/, `\n  ${className},\n];\n`));
}
