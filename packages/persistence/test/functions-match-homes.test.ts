import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import ts from 'typescript';
// The compiled package: migrations are found as .js beside its data source.
import { freePort, migrate, query, sql, startEmbeddedPostgres, type RunningEmbeddedPostgres } from '@storage/persistence';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
/** Where an owner states the current body of its functions and triggers: `src/schema/functions.sql` of its workspace. */
const HOMES = ['apps/*/src/schema/functions.sql', 'packages/*/src/schema/functions.sql'];
/** A definition as PostgreSQL prints it, each followed by `;`; lines starting `--` are the file's comments. */
const DEFINITION = /CREATE OR REPLACE FUNCTION[\s\S]*?\$function\$\s*;|CREATE (?:CONSTRAINT )?TRIGGER[^;]*;/g;

/** Every function and trigger of the migrated schema as PostgreSQL prints it (extensions' and keys' left out). */
const DEFINITIONS = sql<{ definition: string }>(`
  SELECT pg_get_functiondef(p.oid) || ';' AS definition
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
   WHERE n.nspname = 'public' AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
  UNION ALL
  SELECT pg_get_triggerdef(t.oid, true) || ';'
    FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE n.nspname = 'public' AND NOT t.tgisinternal`);

const normalised = (definition: string): string => definition.replace(/\s+/g, ' ').trim();

/** Each home's definitions, normalised, by the home's path. */
async function readHomes(): Promise<Map<string, string[]>> {
  const files = ts.sys.readDirectory(REPO_ROOT, ['.sql'], ['**/node_modules', '**/dist'], HOMES);
  const homes = new Map<string, string[]>();
  for (const file of files) {
    const text = (await readFile(file, 'utf8'))
      .split('\n')
      .filter((line) => !line.startsWith('--'))
      .join('\n');
    homes.set(path.relative(REPO_ROOT, file), (text.match(DEFINITION) ?? []).map(normalised));
  }
  return homes;
}

// What the entities are to the tables: a function's or trigger's current text in its owner's file, the migrations its history.
describe('the functions and triggers of the migrated schema', () => {
  let dataDir: string;
  let server: RunningEmbeddedPostgres;
  let migrated: string[];
  let homes: Map<string, string[]>;

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'storage-functions-'));
    server = await startEmbeddedPostgres({ dataDir, port: await freePort(), ephemeral: true });
    await migrate(server.url());
    const client = new Client({ connectionString: server.url() });
    await client.connect();
    try {
      migrated = (await query(client, DEFINITIONS)).map((row) => normalised(row.definition));
    } finally {
      await client.end();
    }
    homes = await readHomes();
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('each have a home that states them as the migrations left them', () => {
    const stated = new Set([...homes.values()].flat());
    expect(migrated.filter((definition) => !stated.has(definition))).toEqual([]);
  });

  it('are stated once, and a home states only what the migrations made', () => {
    const made = new Set(migrated);
    const homed = [...homes].flatMap(([home, definitions]) => definitions.map((definition) => ({ home, definition })));
    expect(homed.filter(({ definition }) => !made.has(definition))).toEqual([]);
    expect(homed.filter(({ definition }, i) => homed.findIndex((other) => other.definition === definition) !== i)).toEqual([]);
    expect(homes.size).toBeGreaterThan(0);
  });
});
