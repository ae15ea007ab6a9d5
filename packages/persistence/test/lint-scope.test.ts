import path from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

const repoRoot = path.resolve(__dirname, '..', '..', '..');

/** The rule ids a probe file raises when linted as a workspace's `npm run lint` lints: from its folder, the root config. */
async function lintInWorkspace(workspace: string, file: string, text: string): Promise<(string | null)[]> {
  const cwd = path.join(repoRoot, workspace);
  // The probe is no file on disk, so no TypeScript project holds it: the rules that need type information stay off.
  const eslint = new ESLint({ cwd, overrideConfigFile: path.join(repoRoot, 'eslint.config.mjs'), overrideConfig: tseslint.configs.disableTypeChecked });
  const [result] = await eslint.lintText(text, { filePath: path.join(cwd, file) });
  return result.messages.map((message) => message.ruleId);
}

// The architecture's lint rules name folders from the repository root; each workspace lints from its own folder.
describe('the lint rules hold in every workspace', () => {
  it('refuses SQL run outside persistence’s query', async () => {
    const probe = "declare const db: { query(text: string): void };\ndb.query('SELECT 1');\nexport {};\n";
    expect(await lintInWorkspace('packages/messaging', 'src/probe.ts', probe)).toContain('no-restricted-syntax');
    expect(await lintInWorkspace('apps/api', 'test/probe.ts', probe)).toContain('no-restricted-syntax');
  }, 30_000);

  it('refuses SQL text a package exports, bare or built by a function, and takes it as a fragment', async () => {
    const bare = [
      'export const WRITE_SQL = `UPDATE units SET status = $1`;\n',
      "export const READ_SQL = 'SELECT 1';\n",
      'export const STATEMENTS = { read: `SELECT uuid FROM units` };\n',
      'export const markSql = (id: string): string => `INSERT INTO marks VALUES (${id})`;\n',
      'export function deleteSql(id: string): string {\n  return `DELETE FROM marks WHERE id = ${id}`;\n}\n',
      // A select list, spliced into another statement: no keyword but its aliases.
      'export const MARK_COLUMNS = `uuid, unit_uuid AS "unitUuid"`;\n',
    ];
    for (const probe of bare) expect(await lintInWorkspace('packages/rentals', 'src/probe.ts', probe)).toContain('no-restricted-syntax');
    const typed =
      "declare function fragment(text: string): string;\nexport const MARK = fragment(`INSERT INTO marks VALUES ($1)`);\nexport const NAME = 'Units';\n";
    expect(await lintInWorkspace('packages/rentals', 'src/probe.ts', typed)).toEqual([]);
  }, 30_000);

  it('keeps packages/domain free of database and framework code', async () => {
    expect(await lintInWorkspace('packages/domain', 'src/probe.ts', "import 'pg';\nexport {};\n")).toContain('no-restricted-imports');
  }, 30_000);
});
