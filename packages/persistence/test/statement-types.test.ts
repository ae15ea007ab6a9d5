import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, types } from 'pg';
import ts from 'typescript';
// The compiled package: migrations are found as .js beside its data source.
import { freePort, migrate, startEmbeddedPostgres, type RunningEmbeddedPostgres } from '@storage/persistence';
import { checkStatements, type Checked } from './statement-types/check-statements';
import { findStatements, REPO_ROOT, type Statements } from './statement-types/find-statements';

/** Where statements are written: every workspace's sources and benchmarks (tests make their own tables). */
const SCANNED = ['apps/*/src/**/*', 'packages/*/src/**/*', 'tools/*/src/**/*', 'apps/*/bench/**/*', 'packages/*/bench/**/*', 'tools/*/bench/**/*'];
const FIXTURE = path.join(__dirname, 'fixtures', 'statement-types', 'statements.ts');

/**
 * The statements that cannot be checked before run time, by file and their text argument as written: this list only
 * shrinks. The check fails on an unchecked statement it does not list, and on an entry that matches nothing or a
 * statement that checks.
 */
const UNCHECKED: readonly { file: string; source: RegExp; why: string }[] = [
  { file: 'packages/messaging/src/embedded/log-follower.ts', source: /^channels\.map\(/, why: 'the channels the consumers follow' },
  { file: 'packages/rental-ledger/src/bulk-rent-charges.ts', source: /\$\{rentals\.text\}/, why: "rows from the caller's statement" },
  { file: 'packages/unit-occupancy/src/bulk-catalog.ts', source: /\.text\}/, why: "rows from the caller's statement" },
  { file: 'packages/rentals/src/bulk-rentals.ts', source: /\.text\}/, why: "rows from the caller's statement" },
  { file: 'apps/api/src/seed/demo-shoppers.ts', source: /\(\$\{columns\}\)/, why: 'the columns the demo rows have' },
  { file: 'apps/api/src/seed/scale-seed.ts', source: /^statement$|\$\{id\(|^coverageHistory\(/, why: 'values inlined, checked by the CLI' },
  { file: 'packages/testing/src/test-server.ts', source: /^text$/, why: "the test's own administration statements" },
  { file: 'apps/delinquency-scheduler/bench/scale-dataset.ts', source: /^`INSERT .*bench_uuid\(/, why: 'bench_uuid() is created by the bench as it runs' },
  { file: 'apps/delinquency-scheduler/bench/scratch-database.ts', source: /DATABASE (IF EXISTS )?\$\{name\}/, why: 'a scratch database per measurement' },
];

const NO_TYPE: number = 0;

const fileOf = (checked: Checked): string => checked.statement.at.replace(/:\d+$/, '');
const listed = (checked: Checked) => UNCHECKED.find((entry) => entry.file === fileOf(checked) && entry.source.test(checked.statement.source));

describe('every typed SQL statement against the migrated schema', () => {
  let dataDir: string;
  let server: RunningEmbeddedPostgres;
  let client: Client;
  let scanned: Checked[];
  let fixtures: Checked[];
  let found: Statements;
  let files: string[];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'storage-statements-'));
    server = await startEmbeddedPostgres({ dataDir, port: await freePort(), ephemeral: true });
    await migrate(server.url());
    client = new Client({ connectionString: server.url() });
    await client.connect();
    // One program, one connection: the sources and the fixture together, told apart by file.
    files = ts.sys.readDirectory(REPO_ROOT, ['.ts'], ['**/node_modules', '**/dist', '**/*.d.ts'], SCANNED);
    found = findStatements([...files, FIXTURE]);
    const checked = await checkStatements(client, found);
    const fixture = path.relative(REPO_ROOT, FIXTURE);
    scanned = checked.filter((each) => fileOf(each) !== fixture);
    fixtures = checked.filter((each) => fileOf(each) === fixture);
  }, 120_000);

  afterAll(async () => {
    await client?.end();
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("have the columns and parameters their types say, each statement of every workspace's sources", () => {
    expect(scanned.length).toBeGreaterThan(200);
    const failures = scanned.flatMap((checked) => {
      const { at } = checked.statement;
      const entry = listed(checked);
      if (entry !== undefined && checked.uncheckable === undefined) return [`${at}: listed as unchecked (${entry.why}) but checks: take it off UNCHECKED`];
      const unlisted = entry === undefined && checked.uncheckable !== undefined ? [checked.uncheckable] : [];
      return [...unlisted, ...checked.problems].map((problem) => `${at}: ${problem}`);
    });
    expect(failures).toEqual([]);
  });

  it('are all found: every file that calls sql has its statements found by the type checker', async () => {
    const calling = await Promise.all(files.map(async (file) => (/\bsql(<|\()/.test(await readFile(file, 'utf8')) ? [path.relative(REPO_ROOT, file)] : [])));
    const declaring = 'packages/persistence/src/sql.ts';
    expect(new Set(scanned.map(fileOf))).toEqual(new Set(calling.flat().filter((file) => file !== declaring)));
  });

  // Each value a statement binds is typed where the statement is, so the check compares it with its parameter.
  it("type their values in a Values tuple, each statement of a workspace's sources that takes any", () => {
    const takesValues = (checked: Checked): boolean => Array.isArray(checked.statement.texts) && checked.statement.texts.some((text) => /\$\d/.test(text));
    const inSources = (checked: Checked): boolean => /^(apps|packages|tools)\/[^/]+\/src\//.test(fileOf(checked));
    const untyped = scanned.filter((checked) => inSources(checked) && checked.statement.values === undefined && takesValues(checked));
    expect(untyped.map((checked) => checked.statement.at)).toEqual([]);
  });

  it('list as unchecked only statements that are there', () => {
    expect(UNCHECKED.filter((entry) => !scanned.some((checked) => listed(checked) === entry))).toEqual([]);
  });

  it('compare with the types node-pg parses: ParsedValues names exactly the types pg parses', () => {
    // No type has oid 0: pg answers the function it uses for every type it leaves as text.
    const textAsIs = types.getTypeParser(NO_TYPE, 'text');
    const parsedByPg = Array.from({ length: 10_000 }, (_, oid) => oid).filter((oid) => types.getTypeParser(oid, 'text') !== textAsIs);
    expect([...found.parsedValues.keys()].sort((a, b) => a - b)).toEqual(parsedByPg);
  });

  it('report a wrong alias, a wrong type, wrong values, what PostgreSQL refuses, and rows of several commands', async () => {
    const fixtureText = await readFile(FIXTURE, 'utf8');
    const nameOf = (checked: Checked): string => {
      const line = fixtureText.split('\n')[Number(/:(\d+)$/.exec(checked.statement.at)?.[1]) - 1];
      return /export const (\w+)/.exec(line)?.[1] ?? line;
    };
    const reported = Object.fromEntries(
      fixtures.map((checked) => [nameOf(checked), [...(checked.uncheckable ? [checked.uncheckable] : []), ...checked.problems]]),
    );
    expect(reported).toEqual({
      RIGHT: [],
      MISSPELT_ALIAS: ['answers portfolioID, which its Row lacks', "its Row's portfolioId is no column of it"],
      COUNT_AS_NUMBER: ['count is bigint, which node-pg answers as string, but its Row says number'],
      DATE_AS_STRING: ['created_at is timestamp with time zone, which node-pg answers as Date, but its Row says string'],
      VALUES_COUNT: ['its Values has 2 elements, PostgreSQL finds 1 parameters'],
      NO_SUCH_COLUMN: ['PostgreSQL refuses it: column "title" does not exist'],
      NO_RETURNING: ['answers no rows (no RETURNING?) but its Row names uuid'],
      NEVER_ROWS: ['answers name but its Row is never: name them, or unknown if they are not read'],
      UNREAD_ROWS: [],
      BUILT_AT_RUN_TIME: ['its text is built at run time (table: not a constant)'],
      TWO_COMMANDS: [],
      ROWS_OF_TWO_COMMANDS: ['runs 2 commands, whose rows query does not answer, but its Row names x'],
      NUMBER_FOR_UUID: ['its $1 is uuid, but its Values give number'],
      ARRAY_FOR_JSON: ['its $1 is jsonb, but its Values give string[]'],
    });
  });
});
